import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { UserDialog } from './user-dialog.tsx';

const existing = {
  id: 7,
  created: '2025-01-01T00:00:00Z',
  username: 'ann',
  name: 'Ann Lee',
  email: 'ann@example.com',
  admin: false,
  external: false,
  alert: false,
  pro: false,
};

describe('UserDialog', () => {
  it('requires name, username, email and, for a new user, a password', async () => {
    renderWithProviders(<UserDialog open viewerIsAdmin isSelf={false} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    for (const message of ['Name is required', 'Username is required', 'Email is required', 'Password is required']) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
  });

  it('saves an existing user without a password and keeps the dialog open with the server error', async () => {
    const { calls } = stubFetch({ 'PUT /api/users/7': () => json(409, { error: 'Username is taken' }) });
    const onClose = vi.fn();
    renderWithProviders(<UserDialog open user={existing} viewerIsAdmin isSelf={false} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Username is taken');
    expect(onClose).not.toHaveBeenCalled();
    expect(calls[0]?.body).toMatchObject({ id: 7, name: 'Ann Lee', username: 'ann', email: 'ann@example.com' });
    expect(calls[0]?.body).not.toHaveProperty('password');
  });

  it('asks for the current password when one edits their own account, and sends it with the change', async () => {
    const { calls } = stubFetch({ 'PUT /api/users/7': () => new Response(null, { status: 204 }) });
    const onClose = vi.fn();
    renderWithProviders(<UserDialog open user={existing} viewerIsAdmin={false} isSelf onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: 'new-Secret-2' } });
    fireEvent.change(screen.getByLabelText(/Current password/), { target: { value: 'old-Secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]?.body).toMatchObject({ id: 7, password: 'new-Secret-2', current_password: 'old-Secret-1' });
  });

  it('does not ask an admin editing someone else for a current password, nor send one', async () => {
    const { calls } = stubFetch({ 'PUT /api/users/7': () => new Response(null, { status: 204 }) });
    const onClose = vi.fn();
    renderWithProviders(<UserDialog open user={existing} viewerIsAdmin isSelf={false} onClose={onClose} />);
    expect(screen.queryByLabelText(/Current password/)).toBeNull();
    fireEvent.change(await screen.findByLabelText(/^Password/), { target: { value: 'new-Secret-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls[0]?.body).toMatchObject({ id: 7, password: 'new-Secret-2' });
    expect(calls[0]?.body).not.toHaveProperty('current_password');
  });

  it('names the user in the message after a save: created when new, saved when edited', async () => {
    stubFetch({
      'POST /api/users': () => json(201, { ...existing, id: 8, name: 'Bo Chen' }),
      'PUT /api/users/7': () => new Response(null, { status: 204 }),
    });
    const created = renderWithProviders(<UserDialog open viewerIsAdmin isSelf={false} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Bo Chen' } });
    fireEvent.change(screen.getByLabelText(/^Username/), { target: { value: 'bo' } });
    fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'bo@example.com' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'new-Secret-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('User Bo Chen created')).toBeTruthy();
    created.unmount();

    renderWithProviders(<UserDialog open user={existing} viewerIsAdmin isSelf={false} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User Ann Lee saved')).toBeTruthy();
  });

  it('hides the admin flag from non-admins and disables email and password of external users', async () => {
    renderWithProviders(
      <UserDialog open user={{ ...existing, external: true }} viewerIsAdmin={false} isSelf onClose={() => {}} />,
    );
    await waitFor(() => expect(screen.getByLabelText(/Email/)).toHaveProperty('disabled', true));
    expect(screen.getByLabelText(/^Password/)).toHaveProperty('disabled', true);
    expect(screen.queryByLabelText('Admin user')).toBeNull();
  });
});
