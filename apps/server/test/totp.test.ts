import * as OTPAuth from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import type { Clock } from '../src/clock.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

function createFakeClock(start: string): Clock & { advance(seconds: number): void } {
  let current = new Date(start).getTime();
  return { now: () => new Date(current), advance: (seconds) => (current += seconds * 1000) };
}

interface Enrolment {
  id: number;
  url: string;
  recovery_code?: string;
  totp: OTPAuth.TOTP;
}

/** Codes come from the authenticator's side: the otpauth library reading the URL the server gave. */
function codeAt(enrolment: Enrolment, clock: Clock): string {
  return enrolment.totp.generate({ timestamp: clock.now().getTime() });
}

/** A six-digit code that is not the right one now, nor one step either side. */
function wrongCodeAt(enrolment: Enrolment, clock: Clock): string {
  const now = clock.now().getTime();
  const valid = new Set([-30_000, 0, 30_000].map((offset) => enrolment.totp.generate({ timestamp: now + offset })));
  let candidate = 123456;
  while (valid.has(String(candidate))) candidate++;
  return String(candidate);
}

async function enrol(t: TestApp, userId: number, cookie: string): Promise<Enrolment> {
  const response = await t.request('POST', `/api/users/${userId}/2fas/totp`, { as: cookie });
  expect(response.status).toBe(200);
  const body = response.body as Omit<Enrolment, 'totp'>;
  const totp = OTPAuth.URI.parse(body.url);
  if (!(totp instanceof OTPAuth.TOTP)) throw new Error('expected a TOTP URL');
  // From here on the secret and the recovery code must never show up in a response again.
  t.secrets.add(totp.secret.base32);
  if (body.recovery_code) t.secrets.add(body.recovery_code);
  return { ...body, totp };
}

async function enrolAndConfirm(t: TestApp, userId: number, cookie: string, clock: Clock): Promise<Enrolment> {
  const enrolment = await enrol(t, userId, cookie);
  const confirmed = await t.request('POST', `/api/users/${userId}/2fas/totp/${enrolment.id}/confirm`, {
    as: cookie,
    body: { passcode: codeAt(enrolment, clock) },
  });
  expect(confirmed.status).toBe(204);
  return enrolment;
}

describe.each(dialects)('TOTP second factor on %s', (dialect) => {
  const clock = createFakeClock('2026-06-01T10:00:00Z');
  let alice: { id: number; cookie: string };
  const alicePassword = 'alice-Secret-1';
  let enrolment: Enrolment;

  const t = useTestApp(
    dialect,
    { totp_enabled: true, login_max_failures: 6, login_failure_window_seconds: 600 },
    { clock },
  );
  beforeAll(async () => {
    alice = await t.createUser('alice');
  });

  const signIn = () => t.login('alice', alicePassword);

  it('reports TOTP in the login options and the system info', async () => {
    const options = await t.request('GET', '/api/auth/login');
    expect(options.body).toMatchObject({ auth_methods: { totp: { allow_recovery: true, required: false } } });
    const info = await t.request('GET', '/api/info', { as: alice.cookie });
    expect(info.body).toMatchObject({ auth_methods: { totp: { allow_recovery: true, required: false } } });
  });

  it('enrols with an otpauth URL, a QR code and a recovery code, inactive until confirmed', async () => {
    enrolment = await enrol(t, alice.id, alice.cookie);
    expect(enrolment.url).toMatch(/^otpauth:\/\/totp\/Gantry:alice\?/);
    expect(enrolment.totp).toMatchObject({ digits: 6, period: 30, algorithm: 'SHA1', issuer: 'Gantry' });
    expect(enrolment.recovery_code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){4}$/);

    const qr = await t.app.inject({
      method: 'GET',
      url: `/api/users/${alice.id}/2fas/totp/${enrolment.id}/qr`,
      headers: { cookie: alice.cookie },
    });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    // Not active yet: signing in needs no code and /api/user reports no factor.
    const cookie = await signIn();
    const me = await t.request('GET', '/api/user', { as: cookie });
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty('totp');
  });

  it('refuses to enrol or confirm for someone else, even for an admin', async () => {
    expect((await t.request('POST', `/api/users/${alice.id}/2fas/totp`, { as: t.adminCookie })).status).toBe(403);
    const bob = await t.createUser('bob');
    expect(
      (
        await t.request('POST', `/api/users/${alice.id}/2fas/totp/${enrolment.id}/confirm`, {
          as: bob.cookie,
          body: { passcode: '123456' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('GET', `/api/users/${alice.id}/2fas/totp/${enrolment.id}/qr`, { as: bob.cookie })).status,
    ).toBe(403);
  });

  it('confirms only with a right passcode, then reports the factor without its secret', async () => {
    const url = `/api/users/${alice.id}/2fas/totp/${enrolment.id}/confirm`;
    const malformed = await t.request('POST', url, { as: alice.cookie, body: { passcode: '12ab56' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'Passcode must be 6 digits' });
    const wrong = await t.request('POST', url, { as: alice.cookie, body: { passcode: wrongCodeAt(enrolment, clock) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'Invalid passcode' });
    expect(
      (await t.request('POST', url, { as: alice.cookie, body: { passcode: codeAt(enrolment, clock) } })).status,
    ).toBe(204);

    const me = await t.request('GET', '/api/user', { as: alice.cookie });
    expect((me.body as { totp: unknown }).totp).toEqual({
      id: enrolment.id,
      created: expect.any(String),
      user_id: alice.id,
    });
    expect(me.text).not.toContain('otpauth');
    const again = await t.request('POST', `/api/users/${alice.id}/2fas/totp`, { as: alice.cookie });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'TOTP already enabled' });
    // The QR code (the secret) is not shown again once the factor is active.
    expect(
      (await t.request('GET', `/api/users/${alice.id}/2fas/totp/${enrolment.id}/qr`, { as: alice.cookie })).status,
    ).toBe(400);
  });

  it('stores the secret sealed and the recovery code only as an argon2 hash', async () => {
    const row = await t.runtime.connection.db
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(enrolment.totp.secret.base32);
    expect(row.secret).toMatch(/^v1:/);
    expect(row.recovery_hash).toMatch(/^\$argon2id\$/);
  });

  it('signs in with a session that can call nothing but the second-factor steps until verified', async () => {
    clock.advance(30);
    const cookie = await signIn();
    for (const url of ['/api/user', '/api/projects', '/api/info']) {
      const refused = await t.request('GET', url, { as: cookie });
      expect(refused.status, url).toBe(401);
      expect(refused.body).toEqual({ error: 'TOTP_REQUIRED', code: 'totp_required' });
    }
    expect((await t.request('POST', '/api/projects', { as: cookie, body: { name: 'Sneaky' } })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/login', { as: cookie })).status).toBe(200);

    const wrong = await t.request('POST', '/api/auth/verify', {
      as: cookie,
      body: { passcode: wrongCodeAt(enrolment, clock) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'Invalid passcode' });
    expect(
      (await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: codeAt(enrolment, clock) } }))
        .status,
    ).toBe(204);
    expect((await t.request('GET', '/api/projects', { as: cookie })).status).toBe(200);
    // A verified session has nothing left to verify.
    expect((await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: '000000' } })).status).toBe(
      204,
    );
  });

  it('keeps a session awaiting its factor off the live-updates websocket until verified', async () => {
    clock.advance(30);
    const cookie = await signIn();
    await expect(t.app.injectWS('/api/ws', { headers: { cookie } })).rejects.toThrow('401');
    expect(
      (await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: codeAt(enrolment, clock) } }))
        .status,
    ).toBe(204);
    const socket = await t.app.injectWS('/api/ws', { headers: { cookie } });
    socket.terminate();
  });

  it('refuses a passcode replayed within its time step, and an older one after it', async () => {
    clock.advance(30);
    const code = codeAt(enrolment, clock);
    const first = await signIn();
    expect((await t.request('POST', '/api/auth/verify', { as: first, body: { passcode: code } })).status).toBe(204);

    const second = await signIn();
    const replayed = await t.request('POST', '/api/auth/verify', { as: second, body: { passcode: code } });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toMatchObject({ error: expect.stringMatching(/already been used/) });
    clock.advance(30);
    // Still inside the one-step drift window, yet older than the step already spent.
    expect((await t.request('POST', '/api/auth/verify', { as: second, body: { passcode: code } })).status).toBe(400);
    expect(
      (await t.request('POST', '/api/auth/verify', { as: second, body: { passcode: codeAt(enrolment, clock) } }))
        .status,
    ).toBe(204);
  });

  it('needs a session for the second step', async () => {
    expect((await t.request('POST', '/api/auth/verify', { body: { passcode: '123456' } })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/recovery', { body: { recovery_code: 'X' } })).status).toBe(401);
  });

  it('lets a session awaiting its factor lapse after ten minutes', async () => {
    clock.advance(30);
    const cookie = await signIn();
    clock.advance(11 * 60);
    expect((await t.request('GET', '/api/user', { as: cookie })).body).toMatchObject({ error: 'Not signed in' });
    expect(
      (await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: codeAt(enrolment, clock) } }))
        .status,
    ).toBe(401);
  });

  it('accepts the recovery code once: it signs in and removes the factor', async () => {
    const cookie = await signIn();
    const wrong = await t.request('POST', '/api/auth/recovery', {
      as: cookie,
      body: { recovery_code: 'AAAA-BBBB-CCCC-DDDD-EEEE' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'Invalid recovery code' });
    // Typed back without dashes and in lower case, as people do.
    const typed = (enrolment.recovery_code ?? '').replaceAll('-', '').toLowerCase();
    expect((await t.request('POST', '/api/auth/recovery', { as: cookie, body: { recovery_code: typed } })).status).toBe(
      204,
    );
    const me = await t.request('GET', '/api/user', { as: cookie });
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty('totp');

    const next = await signIn();
    expect((await t.request('GET', '/api/user', { as: next })).status).toBe(200);
    const reused = await t.request('POST', '/api/auth/recovery', {
      as: next,
      body: { recovery_code: enrolment.recovery_code },
    });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: 'TOTP not enabled' });
  });

  it('throttles wrong passcodes per user, even a right one afterwards', async () => {
    clock.advance(60);
    const carol = await t.createUser('carol');
    const factor = await enrolAndConfirm(t, carol.id, carol.cookie, clock);
    clock.advance(30);
    const cookie = await t.login('carol', 'carol-Secret-1');
    for (let i = 0; i < 6; i++) {
      expect(
        (await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: wrongCodeAt(factor, clock) } }))
          .status,
      ).toBe(400);
    }
    const throttled = await t.request('POST', '/api/auth/verify', {
      as: cookie,
      body: { passcode: codeAt(factor, clock) },
    });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ error: expect.stringMatching(/Too many wrong codes/) });
    expect(
      (await t.request('POST', '/api/auth/recovery', { as: cookie, body: { recovery_code: factor.recovery_code } }))
        .status,
    ).toBe(429);
    clock.advance(601);
    const later = await t.login('carol', 'carol-Secret-1');
    expect(
      (await t.request('POST', '/api/auth/verify', { as: later, body: { passcode: codeAt(factor, clock) } })).status,
    ).toBe(204);
  });

  it('lets the user or an admin remove the factor, nobody else', async () => {
    clock.advance(60);
    const dave = await t.createUser('dave');
    const factor = await enrolAndConfirm(t, dave.id, dave.cookie, clock);
    const erin = await t.createUser('erin');
    const url = `/api/users/${dave.id}/2fas/totp/${factor.id}`;
    expect((await t.request('DELETE', url, { as: erin.cookie })).status).toBe(403);
    const wrongId = await t.request('DELETE', `/api/users/${dave.id}/2fas/totp/${factor.id + 1000}`, {
      as: t.adminCookie,
    });
    expect(wrongId.status).toBe(400);
    expect(wrongId.body).toMatchObject({ error: 'TOTP not enabled' });
    expect((await t.request('DELETE', url, { as: t.adminCookie })).status).toBe(204);
    const cookie = await t.login('dave', 'dave-Secret-1');
    expect((await t.request('GET', '/api/user', { as: cookie })).status).toBe(200);

    const own = await enrolAndConfirm(t, dave.id, cookie, clock);
    const ownUrl = `/api/users/${dave.id}/2fas/totp/${own.id}`;
    clock.advance(30);
    // A session alone does not turn one's own factor off: it takes a code from the authenticator.
    for (const body of [undefined, null, {}, { passcode: '' }]) {
      const refused = await t.request('DELETE', ownUrl, { as: cookie, body });
      expect(refused.status).toBe(400);
    }
    const noCode = await t.request('DELETE', ownUrl, { as: cookie });
    expect(noCode.body).toMatchObject({ error: expect.stringMatching(/^Enter a code from your authenticator app/) });
    const malformed = await t.request('DELETE', ownUrl, { as: cookie, body: { passcode: '12ab56' } });
    expect(malformed.body).toMatchObject({ error: 'Passcode must be 6 digits' });
    const wrong = await t.request('DELETE', ownUrl, { as: cookie, body: { passcode: wrongCodeAt(own, clock) } });
    expect(wrong.body).toMatchObject({ error: 'Invalid passcode' });
    expect((await t.request('GET', '/api/user', { as: cookie })).body).toHaveProperty('totp');
    const removed = await t.request('DELETE', ownUrl, { as: cookie, body: { passcode: codeAt(own, clock) } });
    expect(removed.status).toBe(204);
    expect((await t.request('GET', '/api/user', { as: cookie })).body).not.toHaveProperty('totp');
  });

  it('asks an admin for a code to turn off their own factor too, and counts wrong codes', async () => {
    clock.advance(60);
    const adminId = ((await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number }).id;
    const factor = await enrolAndConfirm(t, adminId, t.adminCookie, clock);
    clock.advance(30);
    const url = `/api/users/${adminId}/2fas/totp/${factor.id}`;
    expect((await t.request('DELETE', url, { as: t.adminCookie })).status).toBe(400);
    const guesses = [];
    for (let i = 0; i < 6; i++)
      guesses.push(
        await t.request('DELETE', url, { as: t.adminCookie, body: { passcode: wrongCodeAt(factor, clock) } }),
      );
    expect(guesses.map((guess) => guess.status)).toEqual([400, 400, 400, 400, 400, 400]);
    const throttled = await t.request('DELETE', url, { as: t.adminCookie, body: { passcode: codeAt(factor, clock) } });
    expect(throttled.status).toBe(429);
    clock.advance(601);
    const removed = await t.request('DELETE', url, { as: t.adminCookie, body: { passcode: codeAt(factor, clock) } });
    expect(removed.status).toBe(204);
  });

  it('removes an unconfirmed enrolment of your own without a code', async () => {
    clock.advance(60);
    const grace = await t.createUser('grace');
    const pending = await enrol(t, grace.id, grace.cookie);
    const removed = await t.request('DELETE', `/api/users/${grace.id}/2fas/totp/${pending.id}`, { as: grace.cookie });
    expect(removed.status).toBe(204);
  });

  it('lets the operator remove a lost factor from the command line', async () => {
    clock.advance(60);
    const ivy = await t.createUser('ivy');
    await enrolAndConfirm(t, ivy.id, ivy.cookie, clock);
    const out: string[] = [];
    const { config } = t.runtime;
    const env = {
      GANTRY_DB_DIALECT: config.db_dialect,
      GANTRY_DB_URL: config.db_url,
      GANTRY_DATA_DIR: config.data_dir,
      GANTRY_ACCESS_KEY_ENCRYPTION: config.access_key_encryption ?? '',
      GANTRY_LOG_LEVEL: 'silent',
    };
    const run = (...argv: string[]) =>
      runCli(argv, { print: (line) => out.push(line), printError: (line) => out.push(line), env });
    expect(await run('user', 'totp-remove', '--login', 'ivy')).toBe(0);
    expect(out.pop()).toBe('Two-factor authentication of ivy removed!');
    expect((await t.request('GET', '/api/user', { as: await t.login('ivy', 'ivy-Secret-1') })).status).toBe(200);
    expect(await run('user', 'totp-remove', '--email', 'ivy@example.com')).toBe(0);
    expect(out.pop()).toBe('User ivy has no two-factor authentication.');
  });

  it('leaves API tokens working: a token is created by a verified session', async () => {
    clock.advance(60);
    const frank = await t.createUser('frank');
    const created = await t.request('POST', '/api/user/tokens', { as: frank.cookie, body: { name: 'ci' } });
    const token = (created.body as { id: string }).id;
    t.secrets.add(token);
    await enrolAndConfirm(t, frank.id, frank.cookie, clock);
    const viaToken = await t.request('GET', '/api/user', { headers: { authorization: `Bearer ${token}` } });
    expect(viaToken.status).toBe(200);
  });
});

describe.each(dialects)('TOTP required by the administrator on %s', (dialect) => {
  const clock = createFakeClock('2026-06-01T12:00:00Z');

  const t = useTestApp(dialect, { totp_enabled: true, totp_required: true }, { clock });

  /** Enrols the session's user through the sign-in enrolment steps; returns the enrolment. */
  async function enrolAtLogin(cookie: string) {
    const started = await t.request('POST', '/api/auth/totp/enroll', { as: cookie });
    expect(started.status).toBe(200);
    const body = started.body as { id: number; url: string; recovery_code: string };
    const totp = OTPAuth.URI.parse(body.url) as OTPAuth.TOTP;
    t.secrets.add(totp.secret.base32);
    t.secrets.add(body.recovery_code);
    return { ...body, totp };
  }

  it('makes a user without TOTP enrol at sign-in before anything else', async () => {
    // Even the first admin: their session awaits the enrolment before it may manage users.
    expect(
      (
        await t.request('POST', '/api/users', {
          as: t.adminCookie,
          body: { username: 'x', name: 'x', email: 'x@example.com', password: 'x' },
        })
      ).status,
    ).toBe(401);
    const adminFactor = await enrolAtLogin(t.adminCookie);
    const adminCode = adminFactor.totp.generate({ timestamp: clock.now().getTime() });
    expect(
      (
        await t.request('POST', `/api/auth/totp/enroll/${adminFactor.id}/confirm`, {
          as: t.adminCookie,
          body: { passcode: adminCode },
        })
      ).status,
    ).toBe(204);

    // createUser signs in; with TOTP required that session awaits the enrolment.
    const { id, cookie } = await t.createUser('gina');
    const refused = await t.request('GET', '/api/user', { as: cookie });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'TOTP_ENROLL_REQUIRED', code: 'totp_enroll_required' });
    expect((await t.request('POST', `/api/users/${id}/2fas/totp`, { as: cookie })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/verify', { as: cookie, body: { passcode: '123456' } })).status).toBe(
      401,
    );
    // A signed-in, verified session has no enrolment to do here.
    expect((await t.request('POST', '/api/auth/totp/enroll', { as: t.adminCookie })).status).toBe(400);

    const body = await enrolAtLogin(cookie);
    const totp = body.totp;
    const qr = await t.app.inject({ method: 'GET', url: `/api/auth/totp/enroll/${body.id}/qr`, headers: { cookie } });
    expect(qr.headers['content-type']).toBe('image/png');
    const confirmUrl = `/api/auth/totp/enroll/${body.id}/confirm`;
    expect(
      (
        await t.request('POST', confirmUrl, {
          as: cookie,
          body: { passcode: totp.generate({ timestamp: clock.now().getTime() - 120_000 }) },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', confirmUrl, {
          as: cookie,
          body: { passcode: totp.generate({ timestamp: clock.now().getTime() }) },
        })
      ).status,
    ).toBe(204);
    expect((await t.request('GET', '/api/user', { as: cookie })).body).toMatchObject({
      username: 'gina',
      totp: { id: body.id },
    });

    clock.advance(30);
    const next = await t.login('gina', 'gina-Secret-1');
    expect((await t.request('GET', '/api/user', { as: next })).body).toMatchObject({ error: 'TOTP_REQUIRED' });
    expect(
      (
        await t.request('POST', '/api/auth/verify', {
          as: next,
          body: { passcode: totp.generate({ timestamp: clock.now().getTime() }) },
        })
      ).status,
    ).toBe(204);

    // The recovery code signs in, and since TOTP is required the user must set up a new factor.
    clock.advance(30);
    const recovering = await t.login('gina', 'gina-Secret-1');
    expect(
      (await t.request('POST', '/api/auth/recovery', { as: recovering, body: { recovery_code: body.recovery_code } }))
        .status,
    ).toBe(204);
    expect((await t.request('GET', '/api/user', { as: recovering })).body).toMatchObject({
      error: 'TOTP_ENROLL_REQUIRED',
    });
  });
});

describe.each(dialects)('TOTP switched off on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('offers no TOTP and refuses its endpoints', async () => {
    const options = await t.request('GET', '/api/auth/login');
    expect((options.body as { auth_methods: object }).auth_methods).toEqual({});
    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    const enrol = await t.request('POST', `/api/users/${me.id}/2fas/totp`, { as: t.adminCookie });
    expect(enrol.status).toBe(400);
    expect(enrol.body).toMatchObject({ error: 'TOTP not enabled' });
    const verify = await t.request('POST', '/api/auth/verify', { as: t.adminCookie, body: { passcode: '123456' } });
    expect(verify.status).toBe(403);
    expect(verify.body).toMatchObject({ error: 'TOTP_DISABLED' });
    expect(
      (await t.request('POST', '/api/auth/recovery', { as: t.adminCookie, body: { recovery_code: 'ABCD' } })).status,
    ).toBe(403);
  });

  it('signs a user with a factor from before in without a code once TOTP is switched off', async () => {
    const dataDialect = dialect;
    const enabled = await createTestApp(dataDialect, { totp_enabled: true });
    try {
      const user = await enabled.createUser('hank');
      const factor = await enrol(enabled, user.id, user.cookie);
      await enabled.request('POST', `/api/users/${user.id}/2fas/totp/${factor.id}/confirm`, {
        as: user.cookie,
        body: { passcode: factor.totp.generate() },
      });
      const pending = await enabled.login('hank', 'hank-Secret-1');
      expect((await enabled.request('GET', '/api/user', { as: pending })).status).toBe(401);
      // The same database, now served with TOTP off: the pending session and new ones pass.
      enabled.runtime.config.totp_enabled = false;
      expect((await enabled.request('GET', '/api/user', { as: pending })).status).toBe(200);
      expect(
        (await enabled.request('GET', '/api/user', { as: await enabled.login('hank', 'hank-Secret-1') })).status,
      ).toBe(200);
    } finally {
      await enabled.close();
    }
  });
});
