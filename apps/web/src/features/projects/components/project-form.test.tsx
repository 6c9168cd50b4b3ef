import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ProjectForm } from './project-form.tsx';

function renderForm() {
  const onSubmit = vi.fn();
  renderWithProviders(<ProjectForm submitLabel="Create" submitting={false} error={null} onSubmit={onSubmit} />);
  return { onSubmit };
}

const maxParallel = () => screen.getByLabelText('Max parallel tasks');

/** Fills a valid name and the given limit, then submits. */
function submitWithLimit(limit: string) {
  fireEvent.change(screen.getByLabelText(/Project name/), { target: { value: 'Infra' } });
  fireEvent.change(maxParallel(), { target: { value: limit } });
  fireEvent.click(screen.getByRole('button', { name: 'Create' }));
}

describe('ProjectForm', () => {
  it('shows "Name is required" and sends nothing when the name is empty', async () => {
    const { onSubmit } = renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['a fractional', '1.5', 'Must be integer'],
    ['a non-numeric', 'four', 'Must be integer'],
    ['a negative', '-1', 'Must be 0 or greater'],
  ])('rejects %s limit with the rule it breaks', async (_, limit, message) => {
    const { onSubmit } = renderForm();
    submitWithLimit(limit);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the limit again as it is typed after a refused submit', async () => {
    renderForm();
    submitWithLimit('-1');
    expect(await screen.findByText('Must be 0 or greater')).toBeTruthy();
    fireEvent.change(maxParallel(), { target: { value: '1.5' } });
    expect(await screen.findByText('Must be integer')).toBeTruthy();
  });

  it('submits typed values, an empty limit meaning unlimited', async () => {
    const { onSubmit } = renderForm();
    fireEvent.change(screen.getByLabelText(/Project name/), { target: { value: '  Infra  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'Infra', max_parallel_tasks: null });
  });
});
