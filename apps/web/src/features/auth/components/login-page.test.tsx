import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { json, renderWithProviders, stubFetch } from '../../../testing/render.tsx';
import { makeCurrentUser } from '../../../testing/user-fixtures.ts';
import { LoginPage } from './login-page.tsx';
import { buildHelpCommands, makeExamplePassword } from './login-help-dialog.tsx';

const unauthorized = () => new Response(null, { status: 401, statusText: 'Unauthorized' });

function WhereAmI() {
  const location = useLocation();
  return <p>at {location.pathname + location.search}</p>;
}

function renderLogin(url = '/auth/login') {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginPage />} />
      <Route path="/" element={<WhereAmI />} />
    </Routes>,
    { url },
  );
}

describe('LoginPage', () => {
  it('shows one button per single-sign-on provider linking to its login with the query string', async () => {
    stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/auth/login': () =>
        json(200, {
          oidc_providers: [{ id: 'github', name: 'GitHub', color: '#24292e', icon: 'github' }],
          login_with_password: false,
        }),
    });
    renderLogin('/auth/login?t=5');
    const button = await screen.findByRole('link', { name: 'GitHub' });
    expect(button.getAttribute('href')).toBe('/api/auth/oidc/github/login?t=5');
    expect(screen.queryByLabelText(/Password/)).toBeNull();
  });

  it('requires username and password before sending anything', async () => {
    const { calls } = stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/auth/login': () => json(200, { oidc_providers: [], login_with_password: true }),
    });
    renderLogin();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('sends the username trimmed, and once refused checks each change: a filled field loses its message, the first missing one has the focus', async () => {
    const { calls } = stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/auth/login': () => json(200, { oidc_providers: [], login_with_password: true }),
      'POST /api/auth/login': unauthorized,
    });
    renderLogin();
    const username = await screen.findByLabelText(/Username/);
    const password = screen.getByLabelText(/Password/);
    fireEvent.change(password, { target: { value: ' secret ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(username.getAttribute('aria-describedby')).toBe(screen.getByText('Username is required').id);
    expect(document.activeElement).toBe(username);
    expect(screen.queryByText('Password is required')).toBeNull();

    fireEvent.change(username, { target: { value: '  admin ' } });
    expect(screen.queryByText('Username is required')).toBeNull();
    fireEvent.change(password, { target: { value: '' } });
    expect(screen.getByText('Password is required')).toBeTruthy();
    fireEvent.change(password, { target: { value: ' secret ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect login or password')).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { auth: 'admin', password: ' secret ' },
    ]);
  });

  it('opens the sign-in help, fetched at the first click, with the commands to run on the server', async () => {
    stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/auth/login': () => json(200, { oidc_providers: [], login_with_password: true }),
    });
    renderLogin();
    fireEvent.click(await screen.findByRole('button', { name: "Don't have account or can't sign in?" }));
    const dialog = await screen.findByRole('dialog', { name: "Don't have account or can't sign in?" });
    expect(dialog.textContent).toContain('gantry user list');
  });

  it('says "Incorrect login or password" on a 401 and shows other errors as the server wrote them', async () => {
    let answer = unauthorized;
    stubFetch({
      'GET /api/user': unauthorized,
      'GET /api/auth/login': () => json(200, { oidc_providers: [], login_with_password: true }),
      'POST /api/auth/login': () => answer(),
    });
    renderLogin();
    fireEvent.change(await screen.findByLabelText(/Username/), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect login or password')).toBeTruthy();

    answer = () => json(429, { error: 'Too many sign-in attempts, try again in a minute' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Too many sign-in attempts, try again in a minute')).toBeTruthy();
  });

  it('goes to the base page, keeping the query string, when already signed in', async () => {
    stubFetch({
      'GET /api/user': () => json(200, makeCurrentUser()),
    });
    renderLogin('/auth/login?t=9');
    expect(await screen.findByText('at /?t=9')).toBeTruthy();
  });
});

describe('sign-in help', () => {
  it('makes 10-character passwords of letters and digits', () => {
    for (let i = 0; i < 50; i += 1) expect(makeExamplePassword()).toMatch(/^[A-Za-z0-9]{10}$/);
  });

  it('lists the user, change-password and add-admin commands with the example password', () => {
    const commands = buildHelpCommands('Abc123xyz0').map(({ command }) => command);
    expect(commands[0]).toBe('gantry user list');
    expect(commands[1]).toMatch(/^gantry user change-by-login --login \S+ --password Abc123xyz0$/);
    expect(commands[2]).toMatch(/^gantry user add --admin --login \S+ --name .+ --email \S+ --password Abc123xyz0$/);
  });
});
