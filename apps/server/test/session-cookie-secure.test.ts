import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_LOGIN, ADMIN_PASSWORD, createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

function setCookieOf(headers: Record<string, unknown>): string {
  return String(headers['set-cookie']);
}

describe.each(dialects)('Secure session cookie on %s', (dialect) => {
  let tls: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    // Behind a TLS proxy that Gantry is not told to trust: only the public address says https.
    tls = await createTestApp(dialect, { web_host: 'https://gantry.example.com' });
    plain = await createTestApp(dialect, { web_host: 'http://gantry.example.com' });
  });
  afterAll(async () => {
    await tls.close();
    await plain.close();
  });

  it('marks the session cookie Secure on sign-in and sign-out when the public address is https', async () => {
    const login = await tls.request('POST', '/api/auth/login', {
      body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(204);
    expect(setCookieOf(login.headers)).toMatch(/gantry_session=[^;]+;.*Secure/);
    const cookie = setCookieOf(login.headers).split(';')[0] ?? '';
    const logout = await tls.request('POST', '/api/auth/logout', { as: cookie });
    expect(logout.status).toBe(204);
    expect(setCookieOf(logout.headers)).toMatch(/gantry_session=;.*Secure/);
  });

  it('leaves Secure off for plain http and ignores a forwarded protocol from an untrusted proxy', async () => {
    const direct = await plain.request('POST', '/api/auth/login', {
      body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
    });
    expect(direct.status).toBe(204);
    expect(setCookieOf(direct.headers)).not.toMatch(/Secure/);
    const spoofed = await plain.request('POST', '/api/auth/login', {
      body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(spoofed.status).toBe(204);
    expect(setCookieOf(spoofed.headers)).not.toMatch(/Secure/);
  });
});
