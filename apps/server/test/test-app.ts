import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Clock } from '../src/clock.ts';
import type { ConfigInput } from '../src/config.ts';
import type { Dialect } from '../src/db/database.ts';
import type { Runtime } from '../src/runtime.ts';
import { openLocalRuntime } from './local-runtime.ts';
import { createTestDatabase, type TestDatabase } from './test-databases.ts';

export const ADMIN_LOGIN = 'admin';
export const ADMIN_PASSWORD = 'admin-Pa55word';

/** Strings that must never appear in any response body the suite sees. */
const FORBIDDEN_IN_RESPONSES = ['$argon2', 'password_hash', 'token_hash'];

export interface TestResponse {
  status: number;
  body: unknown;
  text: string;
  headers: LightMyRequestResponse['headers'];
}

export interface RequestOptions {
  as?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  dialect: Dialect;
  /** Secret values a test created; no response may ever contain one. */
  secrets: Set<string>;
  request(method: string, url: string, options?: RequestOptions): Promise<TestResponse>;
  /** Signs in and returns the session cookie header value. */
  login(login: string, password: string): Promise<string>;
  adminCookie: string;
  /** Creates a user through the API and returns its id and session cookie. */
  createUser(
    username: string,
    options?: { admin?: boolean; password?: string },
  ): Promise<{ id: number; cookie: string }>;
  close(): Promise<void>;
}

export async function createTestApp(
  dialect: Dialect,
  overrides: ConfigInput = {},
  options: { clock?: Clock } = {},
): Promise<TestApp> {
  const database: TestDatabase = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-data-'));
  const { config, runtime } = await openLocalRuntime(
    {
      db_dialect: dialect,
      db_url: database.url,
      data_dir: dataDir,
      admin_login: ADMIN_LOGIN,
      admin_password: ADMIN_PASSWORD,
      admin_email: 'admin@example.com',
      access_key_encryption: randomBytes(32).toString('base64'),
      ...overrides,
    },
    options.clock,
  );
  const app = await buildApp({ config, services: runtime.services, verifyResponses: true });
  const secrets = new Set<string>([ADMIN_PASSWORD]);

  async function request(method: string, url: string, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.as) headers.cookie = options.as;
    let payload: string | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    const text = response.body;
    for (const forbidden of [...FORBIDDEN_IN_RESPONSES, ...secrets]) {
      expect(text, `response of ${method} ${url} leaks a secret`).not.toContain(forbidden);
    }
    expect(response.statusCode, `${method} ${url} answered 500: ${text}`).not.toBe(500);
    let body: unknown = undefined;
    if (text && String(response.headers['content-type'] ?? '').includes('json')) body = JSON.parse(text);
    return { status: response.statusCode, body, text, headers: response.headers };
  }

  async function login(loginName: string, password: string): Promise<string> {
    const response = await request('POST', '/api/auth/login', { body: { auth: loginName, password } });
    expect(response.status).toBe(204);
    const setCookie = response.headers['set-cookie'];
    const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
    return (first ?? '').split(';')[0] ?? '';
  }

  const adminCookie = await login(ADMIN_LOGIN, ADMIN_PASSWORD);

  return {
    app,
    runtime,
    dialect,
    secrets,
    request,
    login,
    adminCookie,
    async createUser(username, options = {}) {
      const password = options.password ?? `${username}-Secret-1`;
      secrets.add(password);
      const created = await request('POST', '/api/users', {
        as: adminCookie,
        body: {
          username,
          name: `User ${username}`,
          email: `${username}@example.com`,
          password,
          admin: options.admin ?? false,
        },
      });
      expect(created.status).toBe(201);
      return { id: (created.body as { id: number }).id, cookie: await login(username, password) };
    },
    async close() {
      await app.close();
      await runtime.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app of a describe block: created before its first test, closed after its last. The returned
 * object is filled in by the block's first beforeAll, so hooks registered after this call and the
 * tests use it as it is.
 */
export function useTestApp(dialect: Dialect, overrides: ConfigInput = {}, options: { clock?: Clock } = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(dialect, overrides, options));
  });
  afterAll(() => t.close());
  return t;
}

/**
 * The SQLite app of a describe block serving a built web UI from a temporary directory (`dist`, removed
 * after the block) that holds an index.html and `files` (paths relative to it).
 */
export function useWebUiApp(files: Record<string, string>): { t: TestApp; dist: string } {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'gantry-dist-'));
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  for (const [file, content] of Object.entries({ 'index.html': '<!doctype html><title>Gantry</title>', ...files })) {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), content);
  }
  return { t: useTestApp('sqlite', { web_dist_dir: dist }), dist };
}

/** Makes the app listen on a free port of 127.0.0.1 and returns its address, for clients outside the process. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** Another node on `node`'s store, secrets key and Redis, as a second Gantry behind a load balancer. */
export function createPeerNode(node: TestApp): Promise<TestApp> {
  const { db_url, access_key_encryption, redis_url } = node.runtime.config;
  return createTestApp(node.dialect, { db_url, access_key_encryption, redis_url });
}
