import { Readable } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '@gantry/contract';
import { ANONYMOUS_BODY_LIMIT, SIGNED_IN_BODY_LIMIT } from '../src/http/request-body.ts';
import { ADMIN_LOGIN, ADMIN_PASSWORD, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const HOST = 'gantry.test:3000';
const OWN = `http://${HOST}`;
const FOREIGN = 'https://attacker.example';

interface Sent {
  status: number;
  body: { error?: string } & Record<string, unknown>;
  ms: number;
}

const isCrossSiteRefusal = (response: Sent) =>
  response.status === 403 && /^Cross-site request refused/.test(response.body.error ?? '');
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/**
 * The longest the event loop may stall while hostile bodies arrive. Parsing one of them would stall it for
 * 0.7 s (a body just under the signed-in limit) to several seconds; the bound leaves room for a garbage
 * collection of the tens of megabytes the test itself sends from the same process on a loaded machine
 * (52 ms was seen there with a bound of 50).
 */
const LOOP_STALL_BOUND_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The longest the event loop stalled while `work` ran, in milliseconds. The machine's other load stalls
 * it too, at random; a stall the work causes shows in every attempt, so the quietest of five counts.
 */
async function measureLoopDelay(work: () => Promise<void>): Promise<number> {
  const stalls: number[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const monitor = monitorEventLoopDelay({ resolution: 5 });
    monitor.enable();
    await sleep(10);
    await work();
    // A stall shows only once the monitor's timer fires after it.
    await sleep(20);
    monitor.disable();
    stalls.push(monitor.max / 1e6);
  }
  return Math.min(...stalls);
}

describe.each(dialects)('cross-site requests and request bodies on %s', (dialect) => {
  let projectId: number;
  let bearer: string;
  let keyId: number;

  async function send(
    method: string,
    url: string,
    headers: Record<string, string>,
    payload?: string | Buffer | Readable,
  ): Promise<Sent> {
    const started = performance.now();
    const response = await t.app.inject({
      method: method as 'POST',
      url,
      headers: { host: HOST, ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });
    const ms = performance.now() - started;
    expect(response.statusCode, `${method} ${url}: ${response.body}`).not.toBe(500);
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return { status: response.statusCode, body: isJson && response.body ? JSON.parse(response.body) : {}, ms };
  }

  const t = useTestApp(dialect);
  beforeAll(async () => {
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Cross-site' } });
    projectId = (project.body as { id: number }).id;
    const token = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, body: {} });
    const value = (token.body as { id: string }).id;
    t.secrets.add(value);
    bearer = `Bearer ${value}`;
    const keys = await t.request('GET', `/api/project/${projectId}/keys`, { as: t.adminCookie });
    keyId = (keys.body as { id: number }[])[0]?.id ?? 0;
  });

  /** The state-changing requests without a body that a browser could be made to send cross-site. */
  const bodiless = () => [
    ['task confirm', `/api/project/${projectId}/tasks/999999/confirm`],
    ['task reject', `/api/project/${projectId}/tasks/999999/reject`],
    ['integration alias creation', `/api/project/${projectId}/integrations/aliases`],
    ['terraform workspace attach', `/api/project/${projectId}/templates/999999/inventory/999999/attach`],
    ['terraform workspace default', `/api/project/${projectId}/templates/999999/inventory/999999/set_default`],
    ['notifications test', `/api/project/${projectId}/notifications/test`],
    ['sign-out', '/api/auth/logout'],
  ];
  const aliasCount = async () =>
    (
      (await t.request('GET', `/api/project/${projectId}/integrations/aliases`, { as: t.adminCookie }))
        .body as unknown[]
    ).length;

  it('refuses every body-less POST signed in by cookie from a foreign Origin, as text/plain, a form or without a type', async () => {
    const aliasesBefore = await aliasCount();
    for (const [name, url] of bodiless()) {
      for (const type of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        {},
      ] as Record<string, string>[]) {
        const refused = await send('POST', url ?? '', { cookie: t.adminCookie, origin: FOREIGN, ...type });
        expect(
          isCrossSiteRefusal(refused),
          `${name} ${JSON.stringify(type)}: ${refused.status} ${JSON.stringify(refused.body)}`,
        ).toBe(true);
      }
    }
    expect(await aliasCount()).toBe(aliasesBefore);
    expect((await t.request('GET', '/api/user', { as: t.adminCookie })).status).toBe(200);
  });

  it('lets the same requests through from the own origin and with a bearer token from anywhere', async () => {
    for (const [name, url] of bodiless()) {
      if (name === 'sign-out') continue;
      const own = await send('POST', url ?? '', { cookie: t.adminCookie, origin: OWN });
      expect(isCrossSiteRefusal(own), `${name}: ${JSON.stringify(own.body)}`).toBe(false);
      const token = await send('POST', url ?? '', {
        authorization: bearer,
        origin: FOREIGN,
        'content-type': 'text/plain',
      });
      expect(isCrossSiteRefusal(token), `${name}: ${JSON.stringify(token.body)}`).toBe(false);
    }
    const aliasesBefore = await aliasCount();
    expect(
      (await send('POST', `/api/project/${projectId}/integrations/aliases`, { cookie: t.adminCookie, origin: OWN }))
        .status,
    ).toBe(200);
    expect(
      (await send('POST', `/api/project/${projectId}/integrations/aliases`, { authorization: bearer, origin: FOREIGN }))
        .status,
    ).toBe(200);
    expect(await aliasCount()).toBe(aliasesBefore + 2);

    const session = await t.login(ADMIN_LOGIN, ADMIN_PASSWORD);
    expect((await send('POST', '/api/auth/logout', { cookie: session, origin: FOREIGN })).status).toBe(403);
    expect((await t.request('GET', '/api/user', { as: session })).status).toBe(200);
    expect(
      (await send('POST', '/api/auth/logout', { cookie: session, referer: `${OWN}/project/1/history` })).status,
    ).toBe(204);
    expect((await t.request('GET', '/api/user', { as: session })).status).toBe(401);
  });

  it('refuses text/plain signed in by cookie with a foreign Referer, and without Origin or Referer; JSON from a script passes', async () => {
    const url = `/api/project/${projectId}/integrations/aliases`;
    const referred = await send('POST', url, {
      cookie: t.adminCookie,
      referer: `${FOREIGN}/page`,
      'content-type': 'text/plain',
    });
    expect(isCrossSiteRefusal(referred)).toBe(true);
    expect(referred.body.error).toContain('Referer');
    const unmarked = await send('POST', url, { cookie: t.adminCookie, 'content-type': 'text/plain' }, '');
    expect(isCrossSiteRefusal(unmarked)).toBe(true);
    const nullOrigin = await send('POST', url, {
      cookie: t.adminCookie,
      origin: 'null',
      'content-type': 'application/json',
    });
    expect(isCrossSiteRefusal(nullOrigin)).toBe(true);
    expect((await send('POST', url, { cookie: t.adminCookie, 'content-type': 'application/json' })).status).toBe(200);
    expect((await send('POST', url, { cookie: t.adminCookie })).status).toBe(200);
  });

  it('refuses a sign-in from a foreign Origin (login CSRF) and accepts it from the own origin or a script', async () => {
    const credentials = JSON.stringify({ auth: ADMIN_LOGIN, password: ADMIN_PASSWORD });
    const foreign = await send(
      'POST',
      '/api/auth/login',
      { origin: FOREIGN, 'content-type': 'text/plain' },
      credentials,
    );
    expect(isCrossSiteRefusal(foreign)).toBe(true);
    expect(
      (
        await send(
          'POST',
          '/api/auth/login',
          { referer: `${FOREIGN}/`, 'content-type': 'application/x-www-form-urlencoded' },
          credentials,
        )
      ).status,
    ).toBe(403);
    expect(
      (await send('POST', '/api/auth/login', { origin: OWN, 'content-type': 'application/json' }, credentials)).status,
    ).toBe(204);
    expect(
      (await send('POST', '/api/auth/login', { 'content-type': 'application/x-www-form-urlencoded' }, credentials))
        .status,
    ).toBe(204);
  });

  it('leaves webhooks, the terraform state backend and the runner protocol to their own guards', async () => {
    const headers = { origin: FOREIGN, cookie: t.adminCookie, 'content-type': 'text/plain' };
    expect((await send('POST', '/api/integrations/no-such-alias', headers, '{}')).status).toBe(404);
    const state = await send('POST', '/api/terraform/no-such-alias', headers, '{}');
    expect(isCrossSiteRefusal(state), JSON.stringify(state.body)).toBe(false);
    expect(state.status).toBe(404);
    expect(
      (await send('POST', '/api/internal/runners', headers, JSON.stringify({ registration_token: 'wrong' }))).status,
    ).toBe(400);
  });

  it('takes 64 KiB from an anonymous caller, more from a signed-in one, and measures chunked bodies too', async () => {
    const megabyte = JSON.stringify({ auth: ADMIN_LOGIN, password: 'x'.repeat(1024 * 1024) });
    const anonymous = await send('POST', '/api/auth/login', { 'content-type': 'application/json' }, megabyte);
    expect(anonymous.status).toBe(413);
    expect(anonymous.body).toEqual({ error: 'Request body is too large', code: 'payload_too_large' });
    const chunked = await send(
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      Readable.from([megabyte.slice(0, 40_000), megabyte.slice(40_000)]),
    );
    expect(chunked.status).toBe(413);
    expect(
      (
        await send(
          'POST',
          '/api/auth/login',
          { 'content-type': 'application/json', cookie: 'gantry_session=forged' },
          megabyte,
        )
      ).status,
    ).toBe(413);
    expect(
      (
        await send(
          'POST',
          '/api/auth/login',
          { 'content-type': 'application/json', authorization: 'Bearer forged' },
          megabyte,
        )
      ).status,
    ).toBe(413);

    const inventory = {
      name: 'Big',
      type: 'static',
      ssh_key_id: keyId,
      inventory: `[web]\n${'web.example.com\n'.repeat(60_000)}`,
    };
    const body = JSON.stringify(inventory);
    expect(body.length).toBeGreaterThan(ANONYMOUS_BODY_LIMIT * 10);
    const signedIn = await send(
      'POST',
      `/api/project/${projectId}/inventory`,
      { 'content-type': 'application/json', cookie: t.adminCookie, origin: OWN },
      body,
    );
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201);
    const byToken = await send(
      'POST',
      `/api/project/${projectId}/inventory`,
      { authorization: bearer, 'transfer-encoding': 'chunked' },
      Readable.from([body.slice(0, 1000), body.slice(1000)]),
    );
    expect(byToken.status, JSON.stringify(byToken.body)).toBe(201);

    const tooLarge = JSON.stringify({ ...inventory, inventory: 'x'.repeat(SIGNED_IN_BODY_LIMIT) });
    expect(
      (await send('POST', `/api/project/${projectId}/inventory`, { authorization: bearer }, tooLarge)).status,
    ).toBe(413);
  });

  it("gives the largest bodies only to the caller a route is for: a user's token gets no runner-sized report", async () => {
    const report = JSON.stringify([
      { ID: 1, LogOffset: 0, LogRecords: [{ time: '', message: 'x'.repeat(SIGNED_IN_BODY_LIMIT) }] },
    ]);
    const asUser = await send(
      'PUT',
      '/api/internal/runners',
      { authorization: bearer, 'content-type': 'application/json' },
      report,
    );
    expect(asUser.status).toBe(413);
  });

  it('checks the terraform state backend credentials before it reads a body', async () => {
    // A body announced as 5 MiB that never comes: the answer must not wait for it.
    const endless = new Readable({ read() {} });
    endless.push('{"version": 4');
    const answer = await send(
      'POST',
      '/api/terraform/no-such-alias',
      { 'content-type': 'application/json', 'content-length': String(5 * 1024 * 1024) },
      endless,
    );
    expect(answer.status).toBe(404);
    endless.destroy();
  });

  it(`refuses bodies nested deeper than ${MAX_JSON_DEPTH} levels with a 400 before parsing them`, async () => {
    const deep = nested(100_000);
    const signedIn = await send(
      'POST',
      `/api/project/${projectId}/inventory`,
      { authorization: bearer, 'content-type': 'application/json' },
      deep,
    );
    expect(signedIn.status).toBe(400);
    expect(signedIn.body.error).toBe(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    expect(signedIn.ms).toBeLessThan(200);
    const anonymous = await send('POST', '/api/auth/login', { 'content-type': 'text/plain' }, nested(30_000));
    expect(anonymous.status).toBe(400);
    expect(anonymous.ms).toBeLessThan(200);
    const inString = JSON.stringify({
      name: 'Brackets',
      type: 'static',
      ssh_key_id: keyId,
      inventory: `"\\${'['.repeat(10_000)}`,
    });
    expect(
      (await send('POST', `/api/project/${projectId}/inventory`, { authorization: bearer }, inString)).status,
    ).toBe(201);
  });

  it('keeps /api/ping fast while large nested bodies are posted, anonymous or signed in', async () => {
    // Encoded once: the client's own work is not the server's to measure.
    const hostile = Buffer.from(nested(4_000_000));
    const attacks: Sent[] = [];
    const pings: Sent[] = [];
    const delay = await measureLoopDelay(async () => {
      const attacking = Array.from({ length: 8 }, (_, i) =>
        send(
          'POST',
          i % 2 ? '/api/auth/login' : `/api/project/${projectId}/inventory`,
          i % 2 ? { 'content-type': 'application/json' } : { authorization: bearer },
          hostile,
        ),
      );
      const pinging = Array.from({ length: 5 }, () => send('GET', '/api/ping', {}));
      attacks.splice(0, attacks.length, ...(await Promise.all(attacking)));
      pings.splice(0, pings.length, ...(await Promise.all(pinging)));
    });
    expect(attacks.map((r) => r.status)).toEqual([413, 413, 413, 413, 413, 413, 413, 413]);
    expect(pings.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...pings.map((r) => r.ms))).toBeLessThan(200);
    expect(delay).toBeLessThan(LOOP_STALL_BOUND_MS);

    const justUnder = Buffer.from(nested(SIGNED_IN_BODY_LIMIT / 2 - 16));
    const deepAnswers: Sent[] = [];
    const deepDelay = await measureLoopDelay(async () => {
      deepAnswers.splice(
        0,
        deepAnswers.length,
        ...(await Promise.all(
          Array.from({ length: 4 }, () =>
            send('POST', `/api/project/${projectId}/inventory`, { authorization: bearer }, justUnder),
          ),
        )),
      );
    });
    expect(deepAnswers.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(deepDelay).toBeLessThan(LOOP_STALL_BOUND_MS);
  });
});

describe.each(dialects)('the own origin behind a proxy on %s', (dialect) => {
  let aliases: string;

  const t = useTestApp(dialect, { web_host: 'https://gantry.example.com/', trust_proxy: true });
  beforeAll(async () => {
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Proxied' } });
    aliases = `/api/project/${(project.body as { id: number }).id}/integrations/aliases`;
  });

  const post = async (headers: Record<string, string>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: aliases,
      headers: { cookie: t.adminCookie, host: '10.0.0.5:3000', ...headers },
    });
    return { status: response.statusCode, error: (JSON.parse(response.body || '{}') as { error?: string }).error };
  };

  it('accepts the origin of web_host and of the forwarded host, and nothing else', async () => {
    expect((await post({ origin: 'https://gantry.example.com' })).status).toBe(200);
    expect(
      (
        await post({
          origin: 'https://proxy.example.net',
          'x-forwarded-host': 'proxy.example.net',
          'x-forwarded-proto': 'https',
        })
      ).status,
    ).toBe(200);
    expect((await post({ origin: 'http://10.0.0.5:3000' })).status).toBe(200);
    const refused = await post({ origin: 'https://10.0.0.5:3000', 'x-forwarded-host': 'proxy.example.net' });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatch(/^Cross-site request refused/);
    expect((await post({ origin: 'https://gantry.example.com.attacker.example' })).status).toBe(403);
    expect((await post({ referer: 'https://attacker.example/?https://gantry.example.com' })).status).toBe(403);
  });
});
