import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { EnvironmentDialog } from './environment-dialog.tsx';
import { savedEnvironment } from './environment-fixture.ts';

describe('EnvironmentDialog', () => {
  it('sends create, update and delete for changed secrets and nothing for untouched ones', async () => {
    const { calls } = stubFetch({
      'GET /api/project/1/environment/4': () => json(200, savedEnvironment),
      'PUT /api/project/1/environment/4': () => new Response(null, { status: 204 }),
    });
    const onClose = vi.fn();
    renderWithProviders(<EnvironmentDialog open projectId={1} item={savedEnvironment} onClose={onClose} />);
    await waitFor(() => expect(screen.getByLabelText(/^Name\s*\*$/)).toHaveProperty('value', 'prod'));

    fireEvent.click(screen.getByRole('tab', { name: 'Secrets' }));
    fireEvent.change(screen.getByLabelText('Value of api_token'), { target: { value: 'new-token' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete DB_PASSWORD' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add secret' }));
    fireEvent.change(screen.getByLabelText('Secret name'), { target: { value: 'SLACK' } });
    fireEvent.change(screen.getByLabelText('Value of SLACK'), { target: { value: 'hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toMatchObject({ id: 4, name: 'prod', json: '{"region": "eu"}' });
    expect((put?.body as { secrets: unknown[] }).secrets).toEqual([
      { operation: 'delete', id: 10 },
      { operation: 'update', id: 11, secret: 'new-token' },
      { operation: 'create', type: 'var', name: 'SLACK', secret: 'hook' },
    ]);
  });

  it('shows invalid JSON on the Variables tab without sending anything', async () => {
    const { calls } = stubFetch({});
    renderWithProviders(<EnvironmentDialog open projectId={1} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Name\s*\*$/), { target: { value: 'dev' } });
    const extra = screen.getByRole('region', { name: 'Extra variables' });
    fireEvent.click(extra.querySelector('button[value="json"]') as HTMLElement);
    fireEvent.change(screen.getByRole('textbox', { name: 'Extra variables' }), { target: { value: '{"a": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Extra variables must be valid JSON')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
