import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBareApp } from './bare-app.ts';
import { startOidcTestProvider, type OidcTestProvider } from './oidc-test-provider.ts';
import { createTestApp, type TestApp, type TestResponse } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const SITE = 'http://gantry.test';
const CLIENT_SECRET = 'gantry-client-secret-7f3a';

let idp: OidcTestProvider;
beforeAll(async () => {
  idp = await startOidcTestProvider({
    clients: [
      { client_id: 'gantry', client_secret: CLIENT_SECRET, redirect_uris: [`${SITE}/api/auth/oidc/corp/redirect`] },
    ],
    accounts: {
      alice: {
        email: 'Alice@Example.org',
        name: 'Alice Example',
        preferred_username: 'alice',
        groups: ['leads', 'gantry-admins'],
      },
      bob: { email: 'bob@example.org', name: 'Bob', preferred_username: 'bob', groups: ['deployers'] },
      admin: { email: 'admin@example.com', name: 'Impostor', preferred_username: 'admin2' },
      noemail: { name: 'No Mail', preferred_username: 'nomail' },
      unverified: { email: 'unverified@example.org', email_verified: false, preferred_username: 'unverified' },
      namesake: { email: 'namesake@example.org', name: 'Namesake', preferred_username: 'admin' },
      tess: { email: 'tess@example.org', name: 'Tess', preferred_username: 'tess' },
      carol: { email: 'carol@example.org', name: 'Carol', preferred_username: 'carol', groups: ['founders'] },
    },
  });
});
afterAll(() => idp.close());

function cookieFrom(response: TestResponse, name: string): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const found = cookies.find((c) => c.startsWith(`${name}=`));
  return found ? (found.split(';')[0] ?? '') : '';
}

describe.each(dialects)('OpenID Connect sign-in on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      web_host: SITE,
      totp_enabled: true,
      oidc_providers: {
        corp: {
          display_name: 'Corp SSO',
          color: '#0b5394',
          icon: 'mdi-microsoft',
          provider_url: idp.issuer,
          client_id: 'gantry',
          client_secret: CLIENT_SECRET,
          scopes: ['openid', 'profile', 'email', 'groups'],
          admin_groups: ['gantry-admins'],
          project_roles: {
            deployers: { project_id: 1, role: 'task_runner' },
            leads: [
              { project_id: 1, role: 'manager' },
              { project_id: 999, role: 'owner' },
            ],
            founders: { project_id: 2, role: 'owner' },
          },
          order: 2,
        },
        other: { display_name: 'Other', provider_url: 'http://127.0.0.1:9/unreachable', client_id: 'x', order: 1 },
      },
    });
    t.secrets.add(CLIENT_SECRET);
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Mapped' } });
    expect(project.body).toMatchObject({ id: 1 });
    const founded = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Founded' } });
    expect(founded.body).toMatchObject({ id: 2 });
  });
  afterAll(() => t.close());

  /** Runs the whole code flow in a browser's place; answers Gantry's final response to the callback. */
  async function signInAs(login: string, returnTo = '') {
    const start = await t.request(
      'GET',
      `/api/auth/oidc/corp/login${returnTo ? `?return=${encodeURIComponent(returnTo)}` : ''}`,
    );
    expect(start.status).toBe(307);
    const flowCookie = cookieFrom(start, 'gantry_oidc');
    const callback = await idp.authorizeAs(String(start.headers.location), login);
    expect(callback.origin).toBe(SITE);
    const finish = await t.request('GET', `${callback.pathname}${callback.search}`, {
      headers: { cookie: flowCookie },
    });
    return { start, flowCookie, callback, finish, session: cookieFrom(finish, 'gantry_session') };
  }

  it('lists the providers in configured order with name, colour and icon', async () => {
    const options = await t.request('GET', '/api/auth/login');
    expect(options.body).toMatchObject({
      oidc_providers: [
        { id: 'other', name: 'Other', color: '', icon: '' },
        { id: 'corp', name: 'Corp SSO', color: '#0b5394', icon: 'mdi-microsoft' },
      ],
      login_with_password: true,
    });
    expect(options.text).not.toContain('client_id');
  });

  it('redirects to the provider with state, nonce and an S256 PKCE challenge in a sealed HttpOnly cookie', async () => {
    const start = await t.request('GET', '/api/auth/oidc/corp/login');
    expect(start.status).toBe(307);
    const url = new URL(String(start.headers.location));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(`${SITE}/api/auth/oidc/corp/redirect`);
    expect(url.searchParams.get('scope')).toBe('openid profile email groups');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const param of ['state', 'nonce', 'code_challenge'])
      expect(url.searchParams.get(param)).toMatch(/^[\w-]{20,}$/);
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/gantry_oidc=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/);
    expect(cookie).not.toContain(url.searchParams.get('state'));
  });

  it('signs a new user in as an external user, then finds the same user by e-mail next time', async () => {
    const first = await signInAs('alice', '/project/1/templates');
    expect(first.finish.status).toBe(307);
    expect(first.finish.headers.location).toBe(`${SITE}/project/1/templates`);
    expect(first.session).toMatch(/^gantry_session=.+/);
    expect(String(first.finish.headers['set-cookie'])).toMatch(/gantry_oidc=;/);
    const me = await t.request('GET', '/api/user', { as: first.session });
    expect(me.body).toMatchObject({
      username: 'alice',
      name: 'Alice Example',
      email: 'alice@example.org',
      external: true,
    });

    const second = await signInAs('alice');
    expect(second.finish.headers.location).toBe(`${SITE}/`);
    const again = await t.request('GET', '/api/user', { as: second.session });
    expect((again.body as { id: number }).id).toBe((me.body as { id: number }).id);
    const users = (await t.request('GET', '/api/users', { as: t.adminCookie })).body as Array<{ username: string }>;
    expect(users.filter((u) => u.username === 'alice')).toHaveLength(1);
  });

  it('maps provider groups to admin and to project roles at every sign-in, revoking what a group no longer grants', async () => {
    idp.accounts.bob = { ...idp.accounts.bob, groups: ['deployers'] };
    const bob = await signInAs('bob');
    expect((await t.request('GET', '/api/user', { as: bob.session })).body).toMatchObject({ admin: false });
    expect((await t.request('GET', '/api/project/1/role', { as: bob.session })).body).toMatchObject({
      role: 'task_runner',
    });

    idp.accounts.bob = { ...idp.accounts.bob, groups: ['deployers', 'leads', 'gantry-admins'] };
    const promoted = await signInAs('bob');
    expect((await t.request('GET', '/api/user', { as: promoted.session })).body).toMatchObject({ admin: true });
    expect((await t.request('GET', '/api/project/1/role', { as: promoted.session })).body).toMatchObject({
      role: 'manager',
    });

    idp.accounts.bob = { ...idp.accounts.bob, groups: [] };
    const demoted = await signInAs('bob');
    expect((await t.request('GET', '/api/user', { as: demoted.session })).body).toMatchObject({ admin: false });
    expect((await t.request('GET', '/api/project/1/role', { as: demoted.session })).status).toBe(404);
  });

  it('never lets a group mapping leave a project without an owner: its last owner stays one', async () => {
    idp.accounts.carol = { ...idp.accounts.carol, groups: ['founders'] };
    const carol = await signInAs('carol');
    expect((await t.request('GET', '/api/project/2/role', { as: carol.session })).body).toMatchObject({
      role: 'owner',
    });
    const team = (await t.request('GET', '/api/project/2/users', { as: t.adminCookie })).body as {
      id: number;
      username: string;
    }[];
    for (const member of team.filter((m) => m.username !== 'carol'))
      expect((await t.request('DELETE', `/api/project/2/users/${member.id}`, { as: t.adminCookie })).status).toBe(204);

    idp.accounts.carol = { ...idp.accounts.carol, groups: [] };
    const after = await signInAs('carol');
    expect((await t.request('GET', '/api/project/2/role', { as: after.session })).body).toMatchObject({
      role: 'owner',
    });
  });

  it('refuses a callback whose state does not match the flow cookie', async () => {
    const start = await t.request('GET', '/api/auth/oidc/corp/login');
    const callback = await idp.authorizeAs(String(start.headers.location), 'alice');
    callback.searchParams.set('state', 'forged-state-value-000000000000');
    const finish = await t.request('GET', `${callback.pathname}${callback.search}`, {
      headers: { cookie: cookieFrom(start, 'gantry_oidc') },
    });
    expect(finish.status).toBe(307);
    expect(finish.headers.location).toBe(`${SITE}/auth/login?error=oidc_invalid_state`);
    expect(cookieFrom(finish, 'gantry_session')).toBe('');
  });

  it('refuses a callback without the flow cookie or with a tampered one', async () => {
    const start = await t.request('GET', '/api/auth/oidc/corp/login');
    const callback = await idp.authorizeAs(String(start.headers.location), 'alice');
    const path = `${callback.pathname}${callback.search}`;
    const variants: Array<Record<string, string>> = [
      {},
      { cookie: `${cookieFrom(start, 'gantry_oidc').slice(0, -4)}AAA=` },
    ];
    for (const headers of variants) {
      const finish = await t.request('GET', path, { headers });
      expect(finish.headers.location).toBe(`${SITE}/auth/login?error=oidc_invalid_state`);
      expect(cookieFrom(finish, 'gantry_session')).toBe('');
    }
    // Older Semaphore releases put the return path after the callback path; the same checks apply there.
    const withPath = `${callback.pathname}/project/1${callback.search}`;
    for (const headers of variants) {
      const finish = await t.request('GET', withPath, { headers });
      expect(finish.headers.location).toBe(`${SITE}/auth/login?error=oidc_invalid_state`);
      expect(cookieFrom(finish, 'gantry_session')).toBe('');
    }
  });

  it('refuses a replayed callback, and a spent code presented with a fresh flow', async () => {
    const first = await signInAs('alice');
    expect(first.session).not.toBe('');
    const path = `${first.callback.pathname}${first.callback.search}`;
    const replay = await t.request('GET', path, { headers: { cookie: first.flowCookie } });
    expect(replay.headers.location).toBe(`${SITE}/auth/login?error=oidc_invalid_state`);
    expect(cookieFrom(replay, 'gantry_session')).toBe('');

    const fresh = await t.request('GET', '/api/auth/oidc/corp/login');
    const freshState = new URL(String(fresh.headers.location)).searchParams.get('state') ?? '';
    const spent = new URL(first.callback);
    spent.searchParams.set('state', freshState);
    const reused = await t.request('GET', `${spent.pathname}${spent.search}`, {
      headers: { cookie: cookieFrom(fresh, 'gantry_oidc') },
    });
    expect(reused.headers.location).toBe(`${SITE}/auth/login?error=oidc_failed`);
    expect(cookieFrom(reused, 'gantry_session')).toBe('');
  });

  it('sends an unknown provider back to the sign-in page', async () => {
    for (const path of [
      '/api/auth/oidc/nope/login',
      '/api/auth/oidc/nope/redirect?code=x&state=y',
      '/api/auth/oidc/nope/redirect/project/1?code=x',
      '/api/auth/oidc/__proto__/login',
    ]) {
      const response = await t.request('GET', path);
      expect(response.status).toBe(307);
      expect(response.headers.location).toBe(`${SITE}/auth/login?error=oidc_unknown_provider`);
    }
  });

  it('sends the user back with oidc_unavailable when the provider cannot be reached', async () => {
    const response = await t.request('GET', '/api/auth/oidc/other/login');
    expect(response.headers.location).toBe(`${SITE}/auth/login?error=oidc_unavailable`);
  });

  it('never lands outside the site, whatever return path is asked for', async () => {
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const { finish } = await signInAs('alice', target);
      expect(finish.headers.location).toBe(`${SITE}/`);
    }
  });

  it('refuses to take over a local account that has the same e-mail', async () => {
    const { finish, session } = await signInAs('admin');
    expect(finish.headers.location).toBe(`${SITE}/auth/login?error=sso_local_user_conflict`);
    expect(session).toBe('');
  });

  it('refuses a new identity whose username another account already has', async () => {
    const { finish, session } = await signInAs('namesake');
    expect(finish.headers.location).toBe(`${SITE}/auth/login?error=sso_username_taken`);
    expect(session).toBe('');
  });

  it('accepts the older redirect= spelling of the return path', async () => {
    const start = await t.request(
      'GET',
      `/api/auth/oidc/corp/login?redirect=${encodeURIComponent('/project/1/history')}`,
    );
    const callback = await idp.authorizeAs(String(start.headers.location), 'alice');
    const finish = await t.request('GET', `${callback.pathname}${callback.search}`, {
      headers: { cookie: cookieFrom(start, 'gantry_oidc') },
    });
    expect(finish.headers.location).toBe(`${SITE}/project/1/history`);
  });

  it('asks a user with a second factor for it after single sign-on too', async () => {
    const first = await signInAs('tess');
    const me = (await t.request('GET', '/api/user', { as: first.session })).body as { id: number };
    const enrolled = await t.request('POST', `/api/users/${me.id}/2fas/totp`, { as: first.session });
    const factor = enrolled.body as { id: number; url: string; recovery_code: string };
    const totp = OTPAuth.URI.parse(factor.url);
    t.secrets.add(totp.secret.base32);
    t.secrets.add(factor.recovery_code);
    const confirmUrl = `/api/users/${me.id}/2fas/totp/${factor.id}/confirm`;
    expect(
      (await t.request('POST', confirmUrl, { as: first.session, body: { passcode: totp.generate() } })).status,
    ).toBe(204);

    const second = await signInAs('tess');
    expect(second.finish.headers.location).toBe(`${SITE}/`);
    const refused = await t.request('GET', '/api/user', { as: second.session });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'TOTP_REQUIRED' });
  });

  it('refuses an identity without an e-mail address', async () => {
    const { finish } = await signInAs('noemail');
    expect(finish.headers.location).toBe(`${SITE}/auth/login?error=sso_no_email`);
  });

  it('refuses an e-mail address the provider marks as unverified', async () => {
    const { finish, session } = await signInAs('unverified');
    expect(finish.headers.location).toBe(`${SITE}/auth/login?error=sso_email_unverified`);
    expect(session).toBe('');
  });

  it('reports the provider refusing the sign-in', async () => {
    const start = await t.request('GET', '/api/auth/oidc/corp/login');
    const state = new URL(String(start.headers.location)).searchParams.get('state') ?? '';
    const denied = await t.request('GET', `/api/auth/oidc/corp/redirect?error=access_denied&state=${state}`, {
      headers: { cookie: cookieFrom(start, 'gantry_oidc') },
    });
    expect(denied.headers.location).toBe(`${SITE}/auth/login?error=oidc_denied`);
  });

  it('lets an external user not change a password locally nor sign in with one', async () => {
    const { session } = await signInAs('alice');
    const me = (await t.request('GET', '/api/user', { as: session })).body as { id: number };
    const change = await t.request('POST', `/api/users/${me.id}/password`, {
      as: session,
      body: { password: 'N3w-password!' },
    });
    expect(change.status).toBe(400);
    const login = await t.request('POST', '/api/auth/login', { body: { auth: 'alice', password: 'N3w-password!' } });
    expect(login.status).toBe(401);
  });
});

describe('password sign-in switched off', () => {
  it('hides the form and refuses passwords, in either spelling of the setting', async () => {
    for (const overrides of [{ password_login_disabled: true }, { password_login_disable: true }]) {
      const locked = await openBareApp(overrides);
      try {
        expect(await locked.readLoginOptions()).toMatchObject({ login_with_password: false });
        const login = await locked.signIn();
        expect(login.statusCode).toBe(403);
        expect(login.headers['set-cookie']).toBeUndefined();
      } finally {
        await locked.close();
      }
    }
  });
});
