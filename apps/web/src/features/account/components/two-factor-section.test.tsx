import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeCurrentUser } from '../../../testing/user-fixtures.ts';
import { TwoFactorSection } from './two-factor-section.tsx';

const info = {
  version: '1.0.0',
  ansible: '',
  web_host: '',
  use_remote_runner: false,
  git_client: 'cmd_git',
  premium_features: {},
  schedule_timezone: 'UTC',
  demo_mode: false,
  auth_methods: { totp: { allow_recovery: true, required: false } },
  teams: null,
  roles: [],
};
const user = makeCurrentUser({ id: 5, totp: { id: 7, created: '2026-01-01T00:00:00Z', user_id: 5 } });

describe('turning off two-factor authentication', () => {
  it('asks for a code from the app, keeps the dialog open on a wrong one and turns off with a right one', async () => {
    const { calls } = stubFetch({
      'GET /api/info': () => json(200, info),
      'DELETE /api/users/5/2fas/totp/7': (init) => {
        const { passcode } = JSON.parse(String(init?.body)) as { passcode: string };
        return passcode === '654321'
          ? new Response(null, { status: 204 })
          : json(400, { error: 'Invalid passcode', code: 'bad_request' });
      },
      'GET /api/user': () => json(200, { ...user, totp: undefined }),
    });
    renderWithProviders(<TwoFactorSection user={user} />);

    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
    const submit = within(dialog).getByRole('button', { name: 'Turn off' });
    // Turning the second factor off weakens the account: the button is red, like a confirmation's.
    expect(submit.className).toMatch(/MuiButton-containedError/);
    fireEvent.click(submit);
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(submit);
    expect(await within(dialog).findByText('Invalid passcode')).toBeTruthy();
    expect((within(dialog).getByLabelText('6-digit code') as HTMLInputElement).value).toBe('');

    fireEvent.change(within(dialog).getByLabelText('6-digit code'), { target: { value: '654321' } });
    fireEvent.click(submit);
    expect(await screen.findByText('Two-factor authentication is off.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.body)).toEqual([
      { passcode: '123456' },
      { passcode: '654321' },
    ]);
  });
});
