import { describe, expect, it } from 'vitest';
import { ADMIN_LOGIN, ADMIN_PASSWORD, createTestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('sign-in and sessions on %s', (dialect) => {
  const t = useTestApp(dialect, { login_max_failures: 3, login_failure_window_seconds: 60 });

  it('GET /api/user answers 401 without a session', async () => {
    const response = await t.request('GET', '/api/user');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: expect.any(String) });
  });

  it('signs in by username or email, case-insensitively, with an HttpOnly SameSite=Lax cookie', async () => {
    for (const auth of [ADMIN_LOGIN, 'ADMIN@example.com']) {
      const response = await t.request('POST', '/api/auth/login', { body: { auth, password: ADMIN_PASSWORD } });
      expect(response.status).toBe(204);
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);
    }
    const me = await t.request('GET', '/api/user', { as: t.adminCookie });
    expect(me.body).toMatchObject({ username: ADMIN_LOGIN, admin: true, can_create_project: true });
  });

  it('marks the cookie Secure when served over https behind a trusted proxy', async () => {
    const proxied = await createTestApp(dialect, { trust_proxy: true });
    try {
      const response = await proxied.request('POST', '/api/auth/login', {
        body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(String(response.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a wrong password with "Incorrect login or password"', async () => {
    const response = await t.request('POST', '/api/auth/login', {
      body: { auth: ADMIN_LOGIN, password: 'wrong' },
      headers: { 'x-forwarded-for': '10.0.0.1' },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Incorrect login or password', code: 'unauthorized' });
  });

  it('requires username and password with the seeded messages', async () => {
    expect((await t.request('POST', '/api/auth/login', { body: { auth: '', password: 'x' } })).body).toMatchObject({
      error: 'Username is required',
    });
    expect((await t.request('POST', '/api/auth/login', { body: { auth: 'x' } })).body).toMatchObject({
      error: 'Password is required',
    });
  });

  it('refuses an over-long username or password with a length message, not "is required"', async () => {
    const longLogin = await t.request('POST', '/api/auth/login', { body: { auth: 'x'.repeat(256), password: 'x' } });
    expect(longLogin.status).toBe(400);
    expect(longLogin.body).toMatchObject({ error: 'Username must be at most 255 characters' });
    const longPassword = await t.request('POST', '/api/auth/login', {
      body: { auth: 'x', password: 'x'.repeat(1025) },
    });
    expect(longPassword.status).toBe(400);
    expect(longPassword.body).toMatchObject({ error: 'Password must be at most 1024 characters' });
    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    const longNew = await t.request('POST', `/api/users/${me.id}/password`, {
      as: t.adminCookie,
      body: { password: 'x'.repeat(1025) },
    });
    expect(longNew.status).toBe(400);
    expect(longNew.body).toMatchObject({ error: 'Password must be at most 1024 characters' });
  });

  it('throttles an address after repeated failures without locking the account for others', async () => {
    const throttled = await createTestApp(dialect, {
      login_max_failures: 3,
      login_failure_window_seconds: 60,
      trust_proxy: true,
    });
    try {
      const attacker = { 'x-forwarded-for': '203.0.113.9' };
      for (let i = 0; i < 3; i++) {
        const r = await throttled.request('POST', '/api/auth/login', {
          body: { auth: ADMIN_LOGIN, password: 'nope' },
          headers: attacker,
        });
        expect(r.status).toBe(401);
      }
      const refused = await throttled.request('POST', '/api/auth/login', {
        body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
        headers: attacker,
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: expect.stringMatching(/Too many failed sign-in attempts/) });
      const someoneElse = await throttled.request('POST', '/api/auth/login', {
        body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      expect(someoneElse.status).toBe(204);
    } finally {
      await throttled.close();
    }
  });

  it('logout ends the session on the server, not only in the browser', async () => {
    const cookie = await t.login(ADMIN_LOGIN, ADMIN_PASSWORD);
    expect((await t.request('GET', '/api/user', { as: cookie })).status).toBe(200);
    const out = await t.request('POST', '/api/auth/logout', { as: cookie });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/gantry_session=;/);
    expect((await t.request('GET', '/api/user', { as: cookie })).status).toBe(401);
  });

  it('expires a session after the configured inactivity', async () => {
    const idle = await createTestApp(dialect, { session_idle_minutes: 0 });
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await idle.request('GET', '/api/user', { as: idle.adminCookie })).status).toBe(401);
    } finally {
      await idle.close();
    }
  });

  it('ends a session once it reaches the largest age, however busy it was', async () => {
    let now = Date.now();
    const clock = { now: () => new Date(now) };
    const busy = await createTestApp(dialect, { session_idle_minutes: 60, session_max_age_minutes: 180 }, { clock });
    try {
      // Used every 50 minutes: never idle, and still over after three hours.
      for (let minutes = 50; minutes <= 150; minutes += 50) {
        now += 50 * 60_000;
        expect((await busy.request('GET', '/api/user', { as: busy.adminCookie })).status, `${minutes} min`).toBe(200);
      }
      now += 50 * 60_000;
      expect((await busy.request('GET', '/api/user', { as: busy.adminCookie })).status).toBe(401);
    } finally {
      await busy.close();
    }
  });

  it('changing a password ends every other session of the user, keeping the one that changed it', async () => {
    const user = await t.createUser('pwchange');
    const otherDevice = await t.login('pwchange', 'pwchange-Secret-1');
    const changed = await t.request('POST', `/api/users/${user.id}/password`, {
      as: user.cookie,
      body: { password: 'brand-New-pw1', current_password: 'pwchange-Secret-1' },
    });
    expect(changed.status).toBe(204);
    expect((await t.request('GET', '/api/user', { as: user.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/user', { as: otherDevice })).status).toBe(401);
    const byAdmin = await t.request('POST', `/api/users/${user.id}/password`, {
      as: t.adminCookie,
      body: { password: 'admin-Set-pw2' },
    });
    expect(byAdmin.status).toBe(204);
    expect((await t.request('GET', '/api/user', { as: user.cookie })).status).toBe(401);
    await t.login('pwchange', 'admin-Set-pw2');
  });

  it('rejects a forged or unknown session cookie', async () => {
    expect((await t.request('GET', '/api/user', { as: 'gantry_session=forged' })).status).toBe(401);
  });
});

describe.each(dialects)('API tokens on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('creates a token shown once, lists only its prefix, authenticates with Bearer and stops working when deleted', async () => {
    const created = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, body: { name: 'ci' } });
    expect(created.status).toBe(201);
    const token = (created.body as { id: string }).id;
    expect(token).toMatch(/^[a-z0-9_-]{43}$/);

    const listed = await t.request('GET', '/api/user/tokens', { as: t.adminCookie });
    expect(listed.body).toEqual([expect.objectContaining({ id: token.slice(0, 8), name: 'ci', expired: false })]);
    expect(listed.text).not.toContain(token);

    const me = await t.request('GET', '/api/user', { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: ADMIN_LOGIN });

    expect((await t.request('DELETE', `/api/user/tokens/${token.slice(0, 8)}`, { as: t.adminCookie })).status).toBe(
      204,
    );
    expect((await t.request('GET', '/api/user', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await t.request('DELETE', `/api/user/tokens/${token.slice(0, 8)}`, { as: t.adminCookie })).status).toBe(
      404,
    );
  });

  it('refuses an expiry in the past and honours one in the near future', async () => {
    const past = await t.request('POST', '/api/user/tokens', {
      as: t.adminCookie,
      body: { expires_at: '2000-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    const soon = new Date(Date.now() + 300).toISOString();
    const created = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, body: { expires_at: soon } });
    const token = (created.body as { id: string }).id;
    expect((await t.request('GET', '/api/user', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await t.request('GET', '/api/user', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('refuses a token name over 255 characters with a plain message', async () => {
    const long = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, body: { name: 'x'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'Name must be at most 255 characters' });
  });

  it("cannot delete another user's token", async () => {
    const other = await t.createUser('tokenowner');
    const created = await t.request('POST', '/api/user/tokens', { as: other.cookie });
    const token = (created.body as { id: string }).id;
    expect((await t.request('DELETE', `/api/user/tokens/${token}`, { as: t.adminCookie })).status).toBe(404);
    expect((await t.request('GET', '/api/user', { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });
});
