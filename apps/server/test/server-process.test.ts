import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from './server-process-fixture.ts';

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
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth: 'admin', password: 'process-Pass-1' }),
      });
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const call = async (method: string, route: string, body?: unknown) => {
        const response = await fetch(`${server.url}${route}`, {
          method,
          headers: { cookie, 'content-type': 'application/json', origin: server.url },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return (await response.json()) as Record<string, unknown> & { id: number };
      };
      const project = await call('POST', '/api/projects', { name: 'Shutdown' });
      const base = `/api/project/${project.id}`;
      const [key] = (await call('GET', `${base}/keys`)) as unknown as { id: number }[];
      const [group] = (await call('GET', `${base}/environment`)) as unknown as { id: number }[];
      const repository = await call('POST', `${base}/repositories`, {
        name: 'local',
        git_url: scripts,
        ssh_key_id: key?.id,
      });
      const template = await call('POST', `${base}/templates`, {
        name: 'Stubborn',
        app: 'bash',
        playbook: 'stubborn.sh',
        repository_id: repository.id,
        environment_id: group?.id,
      });
      const task = await call('POST', `${base}/tasks`, { template_id: template.id });
      await expect
        .poll(
          async () =>
            ((await call('GET', `${base}/tasks/${task.id}/output`)) as unknown as { output: string }[]).some(
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
      const relogin = await fetch(`${again.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ auth: 'admin', password: 'process-Pass-1' }),
      });
      const status = await fetch(`${again.url}${base}/tasks/${task.id}`, {
        headers: { cookie: (relogin.headers.get('set-cookie') ?? '').split(';')[0] ?? '' },
      }).then((r) => r.json() as Promise<{ status: string }>);
      expect(status.status).toBe('stopped');
    } finally {
      rmSync(taskDataDir, { recursive: true, force: true });
      rmSync(scripts, { recursive: true, force: true });
    }
  }, 60_000);
});
