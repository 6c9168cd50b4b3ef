import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { readTestEnvironment } from '../src/config.ts';

/** The `gantry` command run from the sources: tests exercise the code as it is now, not the last build. */
export const GANTRY_SOURCE_BIN = path.resolve(import.meta.dirname, '../bin/gantry-source.mjs');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far, when started with `captureOutput`. */
  output(): string;
}

export interface ServerProcessOptions {
  dataDir: string;
  port: number;
  /** More settings (GANTRY_ADMIN_PASSWORD, …) over the defaults: 127.0.0.1, log level warn, no web UI. */
  env?: Record<string, string>;
  /** Start under `umask 000`, as a careless service manager would. */
  permissiveUmask?: boolean;
  captureOutput?: boolean;
}

/** Starts `gantry server` as a process of its own and waits until it is ready (recovery done, scheduler running). */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env = {
    PATH: readTestEnvironment().path,
    GANTRY_DATA_DIR: options.dataDir,
    GANTRY_PORT: String(options.port),
    GANTRY_HOST: '127.0.0.1',
    GANTRY_LOG_LEVEL: 'warn',
    GANTRY_WEB_DIST_DIR: '/nonexistent',
    ...options.env,
  };
  const stdio: StdioOptions = options.captureOutput ? ['ignore', 'pipe', 'pipe'] : 'ignore';
  const child: ChildProcess = options.permissiveUmask
    ? spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, GANTRY_SOURCE_BIN, 'server'], {
        env,
        stdio,
      })
    : spawn(process.execPath, [GANTRY_SOURCE_BIN, 'server'], { env, stdio });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    if (
      await fetch(`${url}/api/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}
