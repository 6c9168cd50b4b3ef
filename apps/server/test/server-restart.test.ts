import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRunning } from '../../../packages/runner/test/support/process-state.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from './server-process-fixture.ts';

describe('a server killed in the middle of a task', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-restart-'));
  const scripts = mkdtempSync(path.join(os.tmpdir(), 'gantry-restart-scripts-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scripts, { recursive: true, force: true });
  });

  async function start(port: number): Promise<ChildProcess> {
    const { child } = await startServerProcess({
      dataDir,
      port,
      env: { GANTRY_ADMIN_LOGIN: 'admin', GANTRY_ADMIN_PASSWORD: 'restart-Pass-1' },
    });
    children.push(child);
    return child;
  }

  it('leaves no task running after a restart, and stops the processes the task left behind', async () => {
    writeFileSync(path.join(scripts, 'long.sh'), 'echo "pid $$"\nsleep 300\n');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const first = await start(port);
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: 'admin', password: 'restart-Pass-1' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await response.json()) as Record<string, unknown> & { id: number };
    };
    const project = await call('POST', '/api/projects', { name: 'Restart' });
    const base = `/api/project/${project.id}`;
    const [key] = (await call('GET', `${base}/keys`)) as unknown as { id: number }[];
    const [group] = (await call('GET', `${base}/environment`)) as unknown as { id: number }[];
    const repository = await call('POST', `${base}/repositories`, {
      name: 'local',
      git_url: scripts,
      ssh_key_id: key?.id,
    });
    const template = await call('POST', `${base}/templates`, {
      name: 'Long',
      app: 'bash',
      playbook: 'long.sh',
      repository_id: repository.id,
      environment_id: group?.id,
    });
    const task = await call('POST', `${base}/tasks`, { template_id: template.id });

    let scriptPid = 0;
    for (let i = 0; i < 200 && !scriptPid; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const output = (await call('GET', `${base}/tasks/${task.id}/output`)) as unknown as { output: string }[];
      scriptPid = Number(output.find((l) => l.output.startsWith('pid '))?.output.slice(4) ?? 0);
    }
    expect(scriptPid).toBeGreaterThan(0);

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(isRunning(scriptPid)).toBe(true);

    await start(port);
    const after = await call('GET', `${base}/tasks/${task.id}`);
    expect(after.status).toBe('error');
    const lines = ((await call('GET', `${base}/tasks/${task.id}/output`)) as unknown as { output: string }[]).map(
      (l) => l.output,
    );
    expect(lines).toContain(
      'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
    );
    expect(lines).toContain('Its processes, still running, were stopped.');
    await expect.poll(() => isRunning(scriptPid)).toBe(false);
  });
});
