import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTestEnvironment } from '../src/config.ts';

const bin = path.resolve(import.meta.dirname, '../bin/gantry-source.mjs');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('the server process as a service manager sees it', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-process-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'server'], {
      env: { PATH: readTestEnvironment().path, GANTRY_DATA_DIR: dataDir, GANTRY_PORT: String(port), GANTRY_HOST: '127.0.0.1', GANTRY_WEB_DIST_DIR: '/nonexistent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 300; i++) {
      if (await fetch(`${url}/api/ready`).then((r) => r.ok, () => false)) return { child, url, output: () => output };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the server did not become ready:\n${output}`);
  }

  it('writes only JSON log lines when its output is not a terminal, the first admin password among them', async () => {
    const { child, output } = await start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = output().split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(1);
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a plain line in the log: ${line}`);
      }
    });
    expect(records).toContainEqual(expect.objectContaining({ msg: 'Gantry is running', store: 'sqlite' }));
    expect(records).toContainEqual(expect.objectContaining({ login: 'admin', password: expect.stringMatching(/^\S{12,}$/) }));
  });

  it('exits within 5 seconds of SIGTERM, with code 0', async () => {
    const { child } = await start();
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(code).toBe(0);
  });
});
