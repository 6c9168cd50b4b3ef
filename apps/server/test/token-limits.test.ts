import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('what an API token may do to its account on %s', (dialect) => {
  const t = useTestApp(dialect, { totp_enabled: true, login_max_failures: 3, login_failure_window_seconds: 600 });

  async function createUser(name: string) {
    const password = `${name}-Secret-1`;
    const user = await t.createUser(name, { password });
    const token = (await t.request('POST', '/api/user/tokens', { as: user.cookie, body: { name: 'script' } })).body as {
      id: string;
    };
    t.secrets.add(token.id);
    return { ...user, password, bearer: { authorization: `Bearer ${token.id}` } };
  }

  it('an API token cannot list, create or delete API tokens other than itself', async () => {
    const user = await createUser('tok-tokens');
    const other = (await t.request('POST', '/api/user/tokens', { as: user.cookie, body: { name: 'other' } })).body as {
      id: string;
    };
    t.secrets.add(other.id);
    const listed = (await t.request('GET', '/api/user/tokens', { as: user.cookie })).body as { id: string }[];
    const otherListId = listed.find((token) => other.id.startsWith(token.id))?.id ?? 'x';
    for (const [method, url, body] of [
      ['GET', '/api/user/tokens', undefined],
      ['POST', '/api/user/tokens', { name: 'more' }],
      ['DELETE', `/api/user/tokens/${otherListId}`, undefined],
      ['DELETE', `/api/user/tokens/${other.id}`, undefined],
    ] as const) {
      const response = await t.request(method, url, { headers: user.bearer, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(response.body).toMatchObject({
        error: 'Managing API tokens needs a signed-in session; an API token cannot do this',
      });
    }
    expect(((await t.request('GET', '/api/user/tokens', { as: user.cookie })).body as unknown[]).length).toBe(2);
  });

  it('an API token may expire itself, named by its value as Semaphore documents it', async () => {
    const user = await createUser('tok-self');
    const own = user.bearer.authorization.slice('Bearer '.length);
    const expired = await t.request('DELETE', `/api/user/tokens/${own}`, {
      headers: { ...user.bearer, 'content-type': 'application/json', accept: 'application/json' },
      rawBody: '',
    });
    expect(expired.status).toBe(204);
    expect((await t.request('GET', '/api/projects', { headers: user.bearer })).status).toBe(401);
  });

  it('an API token cannot set up or remove a second factor', async () => {
    const user = await createUser('tok-totp');
    const enrol = await t.request('POST', `/api/users/${user.id}/2fas/totp`, { headers: user.bearer });
    expect(enrol.status).toBe(403);
    expect(enrol.body).toMatchObject({
      error: expect.stringMatching(/two-factor authentication needs a signed-in session/),
    });
    const enrolled = await t.request('POST', `/api/users/${user.id}/2fas/totp`, { as: user.cookie });
    expect(enrolled.status).toBe(200);
    const totpId = (enrolled.body as { id: number }).id;
    expect(
      (await t.request('DELETE', `/api/users/${user.id}/2fas/totp/${totpId}`, { headers: user.bearer })).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', `/api/users/${user.id}/2fas/totp/${totpId}/confirm`, {
          headers: user.bearer,
          body: { passcode: '123456' },
        })
      ).status,
    ).toBe(403);
  });

  it('changing your own password needs your current password, by session or token', async () => {
    const user = await createUser('tok-password');
    const url = `/api/users/${user.id}/password`;
    const missing = await t.request('POST', url, { headers: user.bearer, body: { password: 'Taken-Over-1' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'Enter your current password to change your password or email' });
    const wrong = await t.request('POST', url, {
      as: user.cookie,
      body: { password: 'Taken-Over-1', current_password: 'not-it' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ error: 'Current password is incorrect' });
    const viaUpdate = await t.request('PUT', `/api/users/${user.id}`, {
      headers: user.bearer,
      body: { name: 'x', username: 'tok-password', email: 'tok-password@example.com', password: 'Taken-Over-1' },
    });
    expect(viaUpdate.status).toBe(400);
    // Nothing changed: the old password still signs in.
    await t.login('tok-password', user.password);
    expect(
      (
        await t.request('POST', url, {
          as: user.cookie,
          body: { password: 'Own-Choice-2', current_password: user.password },
        })
      ).status,
    ).toBe(204);
    t.secrets.add('Own-Choice-2');
    await t.login('tok-password', 'Own-Choice-2');
  });

  it('counts wrong current passwords like failed sign-ins: a stolen token cannot guess the password faster', async () => {
    const user = await createUser('tok-guess');
    const url = `/api/users/${user.id}/password`;
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) {
      expect(
        (
          await t.request('POST', url, {
            headers: user.bearer,
            body: { password: 'Taken-Over-1', current_password: guess },
          })
        ).status,
      ).toBe(403);
    }
    const refused = await t.request('POST', url, {
      headers: user.bearer,
      body: { password: 'Taken-Over-1', current_password: user.password },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('changing your own email needs your current password; other fields do not', async () => {
    const user = await createUser('tok-email');
    const fields = { name: 'Renamed', username: 'tok-email' };
    const renamed = await t.request('PUT', `/api/users/${user.id}`, {
      headers: user.bearer,
      body: { ...fields, email: 'tok-email@example.com' },
    });
    expect(renamed.status).toBe(204);
    const stolen = await t.request('PUT', `/api/users/${user.id}`, {
      headers: user.bearer,
      body: { ...fields, email: 'attacker@example.com' },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ error: 'Enter your current password to change your password or email' });
    const moved = await t.request('PUT', `/api/users/${user.id}`, {
      as: user.cookie,
      body: { ...fields, email: 'new@example.com', current_password: user.password },
    });
    expect(moved.status).toBe(204);
    expect(
      ((await t.request('GET', `/api/users/${user.id}`, { as: t.adminCookie })).body as { email: string }).email,
    ).toBe('new@example.com');
  });

  it('a password change ends the other sessions and every API token, and keeps the session that made it', async () => {
    const user = await createUser('tok-ends');
    const otherCookie = await t.login('tok-ends', user.password);
    const changed = await t.request('POST', `/api/users/${user.id}/password`, {
      as: user.cookie,
      body: { password: 'Fresh-Start-3', current_password: user.password },
    });
    expect(changed.status).toBe(204);
    t.secrets.add('Fresh-Start-3');
    expect((await t.request('GET', '/api/user', { as: user.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/user', { as: otherCookie })).status).toBe(401);
    expect((await t.request('GET', '/api/user', { headers: user.bearer })).status).toBe(401);
    const tokens = (await t.request('GET', '/api/user/tokens', { as: user.cookie })).body as { expired: boolean }[];
    expect(tokens.map((token) => token.expired)).toEqual([true]);
  });

  it("an administrator sets another user's password without their own, which ends all that user's sessions and tokens", async () => {
    const user = await createUser('tok-reset');
    const reset = await t.request('POST', `/api/users/${user.id}/password`, {
      as: t.adminCookie,
      body: { password: 'Reset-By-Admin-4' },
    });
    expect(reset.status).toBe(204);
    t.secrets.add('Reset-By-Admin-4');
    expect((await t.request('GET', '/api/user', { as: user.cookie })).status).toBe(401);
    expect((await t.request('GET', '/api/user', { headers: user.bearer })).status).toBe(401);
    expect((await t.request('GET', '/api/user', { as: t.adminCookie })).status).toBe(200);
    await t.login('tok-reset', 'Reset-By-Admin-4');
  });
});
