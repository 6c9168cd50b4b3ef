import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeCurrentUser } from '../../../testing/user-fixtures.ts';
import { AliasList } from './alias-list.tsx';

const ALIAS = { id: 3, url: 'http://localhost:3000/api/integrations/Zq3lK0aL9xY2' };

function serveAs(role: { role: string; permissions: number }) {
  return stubFetch({
    'GET /api/user': () => json(200, makeCurrentUser({ admin: false })),
    'GET /api/project/1/role': () => json(200, role),
    'GET /api/project/1/integrations/aliases': () => json(200, [ALIAS]),
  });
}

function renderList() {
  renderWithProviders(
    <AliasList projectId={1} integrationId={null} canManage={false} title="Project aliases" description="" />,
  );
}

describe('alias list', () => {
  it('shows the alias URLs to a member who may run tasks', async () => {
    serveAs({ role: 'task_runner', permissions: 1 });
    renderList();
    expect(await screen.findByText(ALIAS.url)).toBeTruthy();
  });

  it('shows a guest no alias and never asks for them: an alias starts tasks', async () => {
    const { calls } = serveAs({ role: 'guest', permissions: 0 });
    renderList();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/project/1/role')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Project aliases' })).toBeNull();
    expect(calls.some((call) => call.url.endsWith('/aliases'))).toBe(false);
  });
});
