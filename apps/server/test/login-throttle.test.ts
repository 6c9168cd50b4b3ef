import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.ts';
import { ADMIN_LOGIN, ADMIN_PASSWORD, createTestApp, type TestApp, type TestResponse, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

function createFakeClock(): Clock & { advance(seconds: number): void } {
  let current = Date.now();
  return { now: () => new Date(current), advance: (seconds) => (current += seconds * 1000) };
}

function signIn(t: TestApp, auth: string, password: string, address: string): Promise<TestResponse> {
  return t.request('POST', '/api/auth/login', { body: { auth, password }, headers: { 'x-forwarded-for': address } });
}

describe.each(dialects)('sign-in throttle on %s', (dialect) => {
  const clock = createFakeClock();
  const t = useTestApp(
    dialect,
    { login_max_failures: 10, login_failure_window_seconds: 600, trust_proxy: true },
    { clock },
  );
  beforeAll(async () => {
    await t.createUser('carol', { password: 'carol-Secret-1' });
    for (let i = 0; i < 6; i++) await t.createUser(`sweep${i}`);
  });

  it('checks at most the limit of 20 concurrent wrong passwords and refuses the rest with 429 and Retry-After', async () => {
    const attacker = '203.0.113.20';
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => signIn(t, ADMIN_LOGIN, 'wrong-password', attacker)),
    );
    const checked = responses.filter((r) => r.status === 401);
    const refused = responses.filter((r) => r.status === 429);
    expect(checked.length + refused.length).toBe(20);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    for (const r of refused) {
      expect(r.body).toMatchObject({
        error: expect.stringMatching(/Too many failed sign-in attempts/),
        code: expect.any(String),
      });
      const retryAfter = Number(r.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
    }
  });

  it('answers 401, not a store error, for a login name whose lower case outgrows the 255 characters it may have', async () => {
    // 'İ' lower-cases to two characters: 255 of them become 510.
    const response = await signIn(t, 'İ'.repeat(255), 'wrong-password', '203.0.113.30');
    expect(response.status).toBe(401);
  });

  it('keeps the right password from that address out, but not from another address or for another account', async () => {
    // Concurrent attempts may have refused each other; failures up to the limit come first.
    let failures = 0;
    while ((await signIn(t, ADMIN_LOGIN, 'wrong-password', '203.0.113.20')).status === 401)
      expect(++failures).toBeLessThanOrEqual(10);
    const blocked = await signIn(t, ADMIN_LOGIN, ADMIN_PASSWORD, '203.0.113.20');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(t, ADMIN_LOGIN, ADMIN_PASSWORD, '198.51.100.7')).status).toBe(204);
    expect((await signIn(t, 'carol', 'carol-Secret-1', '203.0.113.20')).status).toBe(204);
  });

  it('lets the address try again once Retry-After has passed', async () => {
    const address = '203.0.113.21';
    for (let i = 0; i < 10; i++) expect((await signIn(t, 'carol', 'nope', address)).status).toBe(401);
    const refused = await signIn(t, 'carol', 'carol-Secret-1', address);
    expect(refused.status).toBe(429);
    clock.advance(Number(refused.headers['retry-after']) + 1);
    expect((await signIn(t, 'carol', 'carol-Secret-1', address)).status).toBe(204);
  });

  it('a correct password under the per-account limit works and does not count as a failure', async () => {
    const address = '203.0.113.22';
    for (let i = 0; i < 9; i++) expect((await signIn(t, 'carol', 'nope', address)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn(t, 'carol', 'carol-Secret-1', address)).status).toBe(204);
    expect((await signIn(t, 'carol', 'nope', address)).status).toBe(401);
    expect((await signIn(t, 'carol', 'carol-Secret-1', address)).status).toBe(429);
  });

  it("counts an account's username, its e-mail address and look-alike spellings against one limit", async () => {
    const address = '203.0.113.40';
    const spellings = ['carol', 'carol@example.com', ' CAROL ', 'ｃａｒｏｌ', '𝐜𝐚𝐫𝐨𝐥'];
    for (let i = 0; i < 10; i++)
      expect((await signIn(t, spellings[i % spellings.length] ?? 'carol', 'nope', address)).status).toBe(401);
    expect((await signIn(t, 'carol@example.com', 'carol-Secret-1', address)).status).toBe(429);
    // A login of no account is counted as the directory would compare it.
    const nobody = '203.0.113.41';
    for (let i = 0; i < 10; i++)
      expect((await signIn(t, i % 2 ? 'ｄａｖｅ' : 'dave', 'nope', nobody)).status).toBe(401);
    expect((await signIn(t, '𝐝𝐚𝐯𝐞', 'nope', nobody)).status).toBe(429);
  });

  it('limits one address across many accounts with a higher, global limit', async () => {
    const address = '203.0.113.23';
    // Five times the per-account limit: five accounts with nine failures each, then five more.
    for (let account = 0; account < 5; account++) {
      for (let i = 0; i < 9; i++) expect((await signIn(t, `sweep${account}`, 'nope', address)).status).toBe(401);
    }
    for (let i = 0; i < 5; i++) expect((await signIn(t, 'sweep5', 'nope', address)).status).toBe(401);
    const refused = await signIn(t, 'sweep5', 'sweep5-Secret-1', address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(t, 'sweep5', 'sweep5-Secret-1', '203.0.113.24')).status).toBe(204);
  });

  it('shares the counts between two server instances on one store', async () => {
    const other = await createTestApp(
      dialect,
      { db_url: t.runtime.config.db_url, login_max_failures: 10, login_failure_window_seconds: 600, trust_proxy: true },
      { clock },
    );
    try {
      const address = '203.0.113.25';
      for (let i = 0; i < 5; i++) expect((await signIn(t, 'carol', 'nope', address)).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await signIn(other, 'carol', 'nope', address)).status).toBe(401);
      expect((await signIn(other, 'carol', 'carol-Secret-1', address)).status).toBe(429);
      expect((await signIn(t, 'carol', 'carol-Secret-1', address)).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});
