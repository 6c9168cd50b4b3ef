import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './machine.ts';
import { createScriptTemplate, signInToProcess, startServerProcess } from './server-process-fixture.ts';

describe('the server process as a service manager sees it', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-process-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start() {
    const server = await startServerProcess({
      dataDir,
      port: await freePort(),
      env: { GANTRY_LOG_LEVEL: 'info' },
      captureOutput: true,
    });
    children.push(server.child);
    return server;
  }

  it('writes only JSON log lines when its output is not a terminal, the first admin password among them', async () => {
    const { child, output } = await start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = output()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(1);
    const records = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a plain line in the log: ${line}`);
      }
    });
    expect(records).toContainEqual(expect.objectContaining({ msg: 'Gantry is running', store: 'sqlite' }));
    expect(records).toContainEqual(
      expect.objectContaining({ login: 'admin', password: expect.stringMatching(/^\S{12,}$/) }),
    );
  });

  it('exits within 5 seconds of SIGTERM, with code 0', async () => {
    const { child } = await start();
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(code).toBe(0);
  });

  it('stops a running task that ignores SIGTERM and still exits within 5 seconds, leaving the task stopped, not running', async () => {
    const taskDataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-process-task-'));
    const scripts = mkdtempSync(path.join(os.tmpdir(), 'gantry-process-scripts-'));
    writeFileSync(path.join(scripts, 'stubborn.sh'), "trap '' TERM\necho started\nwhile true; do sleep 1; done\n");
    try {
      const port = await freePort();
      const env = { GANTRY_ADMIN_LOGIN: 'admin', GANTRY_ADMIN_PASSWORD: 'process-Pass-1' };
      const server = await startServerProcess({ dataDir: taskDataDir, port, env });
      children.push(server.child);
      const call = await signInToProcess(server.url, 'admin', 'process-Pass-1');
      const names = { project: 'Shutdown', template: 'Stubborn', playbook: 'stubborn.sh' };
      const { base, templateId } = await createScriptTemplate(call, scripts, names);
      const task = await call('POST', `${base}/tasks`, { template_id: templateId });
      await expect
        .poll(
          async () =>
            (await call<{ output: string }[]>('GET', `${base}/tasks/${task.id}/output`)).some(
              (l) => l.output === 'started',
            ),
          { timeout: 20_000 },
        )
        .toBe(true);

      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
      expect(Date.now() - signalled).toBeLessThan(5000);

      const again = await startServerProcess({ dataDir: taskDataDir, port, env });
      children.push(again.child);
      const callAgain = await signInToProcess(again.url, 'admin', 'process-Pass-1');
      expect((await callAgain('GET', `${base}/tasks/${task.id}`)).status).toBe('stopped');
    } finally {
      rmSync(taskDataDir, { recursive: true, force: true });
      rmSync(scripts, { recursive: true, force: true });
    }
  }, 60_000);
});
