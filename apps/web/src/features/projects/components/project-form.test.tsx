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

  it('rejects a fractional or non-numeric limit with "Must be integer"', async () => {
    const { onSubmit } = renderForm();
    submitWithLimit('1.5');
    expect(await screen.findByText('Must be integer')).toBeTruthy();
    fireEvent.change(maxParallel(), { target: { value: 'four' } });
    expect(await screen.findByText('Must be integer')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('rejects a negative limit with "Must be 0 or greater"', async () => {
    const { onSubmit } = renderForm();
    submitWithLimit('-1');
    expect(await screen.findByText('Must be 0 or greater')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits typed values, an empty limit meaning unlimited', async () => {
    const { onSubmit } = renderForm();
    fireEvent.change(screen.getByLabelText(/Project name/), { target: { value: '  Infra  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'Infra', max_parallel_tasks: null });
  });
});
