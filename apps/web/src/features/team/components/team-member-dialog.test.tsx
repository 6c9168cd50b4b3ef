import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { TeamMemberDialog } from './team-member-dialog.tsx';

const member = {
  id: 1,
  user_id: 1,
  username: 'admin',
  name: 'Admin',
  email: 'admin@example.com',
  role: 'owner' as const,
};

describe('TeamMemberDialog', () => {
  it('offers only users who are not members yet', async () => {
    stubFetch({
      'GET /api/users': () =>
        json(200, [
          { id: 1, username: 'admin', name: 'Admin' },
          { id: 2, username: 'ann', name: 'Ann Lee' },
        ]),
    });
    renderWithProviders(<TeamMemberDialog open projectId={4} members={[member]} onClose={() => {}} />);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: /User/ }));
    const list = await screen.findByRole('listbox');
    expect(within(list).getByText('Ann Lee')).toBeTruthy();
    expect(within(list).queryByText('Admin')).toBeNull();
  });

  it('requires both the user and the role, both with the user-required text', async () => {
    const { calls } = stubFetch({ 'GET /api/users': () => json(200, []) });
    renderWithProviders(<TeamMemberDialog open projectId={4} members={[member]} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Link' }));
    expect(await screen.findAllByText('User is required')).toHaveLength(2);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
