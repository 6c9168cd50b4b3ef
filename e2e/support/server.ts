import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  adminLogin: string;
  adminPassword: string;
  stop(): Promise<void>;
}

/** A port nothing listens on now, for a server started next. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A `gantry server` process of this checkout on a free port and a fresh data directory. */
export interface GantryProcess {
  url: string;
  child: ChildProcess;
  /** `performance.now()` just before the spawn. */
  spawnedAt: number;
  /** Polls `pathname` every `intervalMs` until it answers 2xx; throws when the process exits or 60 s pass. */
  waitFor(pathname: string, intervalMs?: number): Promise<void>;
  /** Ends the process (SIGTERM) and removes its data directory. */
  stop(): Promise<void>;
}

/** Spawns `gantry server` with `env` over the defaults (its own data directory as HOME, warnings only). */
export async function spawnGantry(env: Record<string, string>): Promise<GantryProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-'));
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/bin/gantry.mjs'), 'server'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      GANTRY_PORT: String(port),
      GANTRY_HOST: '127.0.0.1',
      GANTRY_DATA_DIR: dataDir,
      GANTRY_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return {
    url,
    child,
    spawnedAt,
    async waitFor(pathname, intervalMs = 200) {
      const deadline = spawnedAt + 60_000;
      while (performance.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`Gantry exited early:\n${log}`);
        try {
          if ((await fetch(`${url}${pathname}`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
      throw new Error(`Gantry did not answer ${pathname} in time:\n${log}`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Starts the real `gantry server` (built web UI, fresh SQLite store) on a free port, with a known admin. */
export async function startGantry(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const adminLogin = 'admin';
  const adminPassword = 'e2e-Admin-pass1';
  const server = await spawnGantry({
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    GANTRY_ADMIN_LOGIN: adminLogin,
    GANTRY_ADMIN_PASSWORD: adminPassword,
    GANTRY_ADMIN_NAME: 'Ada Admin',
    ...extraEnv,
  });
  try {
    await server.waitFor('/api/ping');
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.url, adminLogin, adminPassword, stop: () => server.stop() };
}
