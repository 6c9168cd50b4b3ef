import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { startServerProcess } from './server-process-fixture.ts';

// A test hook of its own file: server-process-fixture.ts is also loaded by the benchmarks, outside vitest.

/**
 * A store and a scripts directory that outlive one server process, for tests that kill a server and
 * start another on the same store; `start` starts one with a known admin. Registers the clean-up.
 */
export function useServerStore(name: string, adminPassword: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `gantry-${name}-`));
  const scripts = mkdtempSync(path.join(os.tmpdir(), `gantry-${name}-scripts-`));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scripts, { recursive: true, force: true });
  });
  return {
    dataDir,
    scripts,
    async start(port: number): Promise<ChildProcess> {
      const { child } = await startServerProcess({
        dataDir,
        port,
        env: { GANTRY_ADMIN_LOGIN: 'admin', GANTRY_ADMIN_PASSWORD: adminPassword },
      });
      children.push(child);
      return child;
    },
  };
}
