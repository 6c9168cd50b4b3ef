import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { ChangePasswordDialog } from './change-password-dialog.tsx';

describe('ChangePasswordDialog', () => {
  it('says that other sessions and API tokens end, and asks for the current password', async () => {
    renderWithProviders(<ChangePasswordDialog open userId={7} onClose={() => {}} />);
    expect(screen.getByText(/signs you out on all other devices and revokes all your API tokens/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(await screen.findByText('Password is required')).toBeTruthy();
  });

  it('asks for a new password of at least 8 characters before sending anything', async () => {
    const { calls } = stubFetch({});
    renderWithProviders(<ChangePasswordDialog open userId={7} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/Current password/), { target: { value: 'old-Secret-1' } });
    fireEvent.change(screen.getByLabelText(/New password/), { target: { value: 'seven-7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends the current password with the new one', async () => {
    const { calls } = stubFetch({ 'POST /api/users/7/password': () => new Response(null, { status: 204 }) });
    const onClose = vi.fn();
    renderWithProviders(<ChangePasswordDialog open userId={7} onClose={onClose} />);
    fireEvent.change(screen.getByLabelText(/Current password/), { target: { value: 'old-Secret-1' } });
    fireEvent.change(screen.getByLabelText(/New password/), { target: { value: 'new-Secret-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      password: 'new-Secret-2',
      current_password: 'old-Secret-1',
    });
  });
});
