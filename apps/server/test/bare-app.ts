import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { ConfigInput } from '../src/config.ts';
import { openLocalRuntime } from './local-runtime.ts';

const BARE_ADMIN_PASSWORD = 'bare-Admin-pass1';

interface BareApp {
  /** What the sign-in page offers (GET /api/auth/login). */
  readLoginOptions(): Promise<unknown>;
  /** A password sign-in (POST /api/auth/login), by default the first admin's. */
  signIn(auth?: string, password?: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * An app on a fresh SQLite store that, unlike createTestApp, does not sign the admin in with a
 * password first: for configurations where password sign-in is switched off.
 */
export async function openBareApp(overrides: ConfigInput): Promise<BareApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-bare-'));
  const { config, runtime } = await openLocalRuntime({
    data_dir: dataDir,
    admin_login: 'admin',
    admin_password: BARE_ADMIN_PASSWORD,
    admin_email: 'admin@example.com',
    ...overrides,
  });
  const app = await buildApp({ config, services: runtime.services, verifyResponses: true });
  return {
    readLoginOptions: async () => (await app.inject({ method: 'GET', url: '/api/auth/login' })).json<unknown>(),
    signIn: (auth = 'admin', password = BARE_ADMIN_PASSWORD) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { auth, password } }),
    async close() {
      await app.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
