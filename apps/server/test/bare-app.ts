import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { ensureFirstAdmin } from '../src/bootstrap-admin.ts';
import { loadConfig, readTestEnvironment, type ConfigInput } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';

export const BARE_ADMIN_PASSWORD = 'bare-Admin-pass1';

/**
 * An app on a fresh SQLite store that, unlike createTestApp, does not sign the admin in with a
 * password first: for configurations where password sign-in is switched off.
 */
export async function openBareApp(overrides: ConfigInput): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-bare-'));
  const config = loadConfig(
    {
      data_dir: dataDir,
      web_dist_dir: '/nonexistent-web-dist',
      log_level: 'silent',
      admin_login: 'admin',
      admin_password: BARE_ADMIN_PASSWORD,
      admin_email: 'admin@example.com',
      ...overrides,
    },
    { PATH: readTestEnvironment().path },
  );
  const runtime = await openRuntime(config);
  await ensureFirstAdmin(config, runtime.services.users);
  const app = await buildApp({ config, services: runtime.services, verifyResponses: true });
  return {
    app,
    async close() {
      await app.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
