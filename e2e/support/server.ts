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

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Gantry exited early:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Gantry did not answer in time:\n${output()}`);
}

/** Starts the real `gantry server` (built web UI, fresh SQLite store) on a free port. */
export async function startGantry(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-'));
  const port = await findFreePort();
  const adminLogin = 'admin';
  const adminPassword = 'e2e-Admin-pass1';
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/bin/gantry.mjs'), 'server'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      GANTRY_PORT: String(port),
      GANTRY_HOST: '127.0.0.1',
      GANTRY_DATA_DIR: dataDir,
      GANTRY_ADMIN_LOGIN: adminLogin,
      GANTRY_ADMIN_PASSWORD: adminPassword,
      GANTRY_ADMIN_NAME: 'Ada Admin',
      GANTRY_LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitForPing(url, child, () => log);
  return {
    url,
    adminLogin,
    adminPassword,
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
