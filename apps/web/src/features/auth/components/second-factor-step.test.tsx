import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeCurrentUser } from '../../../testing/user-fixtures.ts';
import { LoginPage } from './login-page.tsx';

const me = makeCurrentUser({
  created: '2026-01-01T00:00:00.000Z',
  username: 'ada',
  name: 'Ada',
  email: 'ada@example.com',
  admin: false,
  can_create_project: false,
});
const loginOptions = {
  oidc_providers: [],
  login_with_password: true,
  auth_methods: { totp: { allow_recovery: true, required: false } },
};

/** /api/user refuses with `refusal` until `verified()` is called, like a session awaiting its factor. */
function sessionAwaiting(refusal: { error: string; code: string }) {
  let verified = false;
  return {
    verify: () => (verified = true),
    answer: () => (verified ? json(200, me) : json(401, refusal)),
  };
}

function renderLogin() {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginPage />} />
      <Route path="/" element={<p>signed in</p>} />
    </Routes>,
    { url: '/auth/login' },
  );
}

describe('sign-in second step', () => {
  it('asks for the code of a session awaiting TOTP, shows a wrong code refused and signs in with a right one', async () => {
    const session = sessionAwaiting({ error: 'TOTP_REQUIRED', code: 'totp_required' });
    const { calls } = stubFetch({
      'GET /api/user': session.answer,
      'GET /api/auth/login': () => json(200, loginOptions),
      'POST /api/auth/verify': (init) => {
        const { passcode } = JSON.parse(String(init?.body)) as { passcode: string };
        if (passcode !== '654321') return json(400, { error: 'Invalid passcode', code: 'bad_request' });
        session.verify();
        return new Response(null, { status: 204 });
      },
    });
    renderLogin();

    const field = await screen.findByLabelText('6-digit code');
    fireEvent.change(field, { target: { value: '12a3456' } });
    expect((field as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid passcode')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('signed in')).toBeTruthy();
    expect(calls.filter((call) => call.url === '/api/auth/verify').map((call) => call.body)).toEqual([
      { passcode: '123456' },
      { passcode: '654321' },
    ]);
  });

  it('signs in with the recovery code instead', async () => {
    const session = sessionAwaiting({ error: 'TOTP_REQUIRED', code: 'totp_required' });
    const { calls } = stubFetch({
      'GET /api/user': session.answer,
      'GET /api/auth/login': () => json(200, loginOptions),
      'POST /api/auth/recovery': () => {
        session.verify();
        return new Response(null, { status: 204 });
      },
    });
    renderLogin();

    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: ' ABCD-EFGH ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('signed in')).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/auth/recovery')?.body).toEqual({ recovery_code: 'ABCD-EFGH' });
  });

  it('offers no recovery code when the server does not allow it', async () => {
    stubFetch({
      'GET /api/user': () => json(401, { error: 'TOTP_REQUIRED', code: 'totp_required' }),
      'GET /api/auth/login': () =>
        json(200, { ...loginOptions, auth_methods: { totp: { allow_recovery: false, required: false } } }),
    });
    renderLogin();
    await screen.findByLabelText('6-digit code');
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
  });

  it('walks a user the server requires TOTP of through the enrolment, showing the recovery code before going on', async () => {
    const session = sessionAwaiting({ error: 'TOTP_ENROLL_REQUIRED', code: 'totp_enroll_required' });
    const enrolment = {
      id: 7,
      created: me.created,
      user_id: 1,
      url: 'otpauth://totp/Gantry:ada?secret=JBSWY3DPEHPK3PXP&issuer=Gantry',
      recovery_code: 'AAAA-BBBB-CCCC-DDDD-EEEE',
    };
    stubFetch({
      'GET /api/user': session.answer,
      'GET /api/auth/login': () => json(200, loginOptions),
      'POST /api/auth/totp/enroll': () => json(200, enrolment),
      'POST /api/auth/totp/enroll/7/confirm': () => {
        session.verify();
        return new Response(null, { status: 204 });
      },
    });
    renderLogin();

    expect(
      await screen.findByText('Your administrator requires two-factor authentication. Set it up to continue.'),
    ).toBeTruthy();
    const qr = await screen.findByRole('img', { name: 'QR code for the authenticator app' });
    expect(qr.getAttribute('src')).toBe('/api/auth/totp/enroll/7/qr');
    expect(screen.getByLabelText('Setup key').textContent).toBe('JBSWY3DPEHPK3PXP');
    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect((await screen.findByLabelText('Recovery code')).textContent).toBe('AAAA-BBBB-CCCC-DDDD-EEEE');
    // The session is verified already, yet the page waits until the user has kept the code.
    expect(screen.queryByText('signed in')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('signed in')).toBeTruthy();
  });
});
