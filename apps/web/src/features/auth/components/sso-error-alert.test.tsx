import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { LoginPage } from './login-page.tsx';

function renderLogin(url: string) {
  stubFetch({
    'GET /api/user': () => new Response(null, { status: 401, statusText: 'Unauthorized' }),
    'GET /api/auth/login': () =>
      json(200, {
        oidc_providers: [{ id: 'corp', name: 'Corp SSO', color: '', icon: '' }],
        login_with_password: true,
      }),
  });
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginPage />} />
    </Routes>,
    { url },
  );
}

describe('single sign-on errors on the sign-in page', () => {
  it('explains why the provider sent the user back, and does not pass the error on to the next attempt', async () => {
    renderLogin('/auth/login?t=7&error=sso_local_user_conflict');
    expect(await screen.findByText(/A local account already uses this e-mail address/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Corp SSO' }).getAttribute('href')).toBe('/api/auth/oidc/corp/login?t=7');
  });

  it('ignores error codes it does not know', async () => {
    renderLogin('/auth/login?error=<script>');
    await screen.findByRole('link', { name: 'Corp SSO' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
