import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning, plantedPids, plantingScript } from '../../../packages/runner/test/support/process-state.ts';
import { createProjectFixture, useProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { listen, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';
import { spawnGantryCommand, type CapturedProcess } from './server-process-fixture.ts';
import { useServerStore } from './server-store-fixture.ts';

// The sources, not the last build: this tests the code as it is now.
const pidDirs: string[] = [];

/** Process ids get reused: only a process still running this file's sleeper is killed in the clean-up. */
function isOurSleeper(pid: number): boolean {
  try {
    return /^([^\x00]*\/)?sleep\x00327\x00/.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
  } catch {
    return false;
  }
}

afterAll(() => {
  for (const dir of pidDirs) {
    for (const file of existsSync(dir) ? readdirSync(dir) : []) {
      const pid = Number(readFileSync(path.join(dir, file), 'utf8'));
      if (isOurSleeper(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A task script that plants this file's sleepers (see plantingScript) in a new directory, then runs `rest`. */
function plantingTaskScript(rest: string): { dir: string; script: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-task-tree-'));
  pidDirs.push(dir);
  return { dir, script: `${plantingScript(dir, 327, rest)}\n` };
}

const dialects = await listTestDialects();

describe.each(dialects)('the process tree of a task on %s', (dialect) => {
  const stubborn = plantingTaskScript(`trap 'echo got TERM' TERM\nwhile true; do sleep 0.1; done`);
  const plain = plantingTaskScript('sleep 327');

  // A grace period far longer than any assertion below waits: only a real force stop can end the task in time.
  const t = useTestApp(dialect, { task_kill_grace_seconds: 120 });
  const p = useProjectFixture(t, { 'stubborn.sh': stubborn.script, 'plain.sh': plain.script });

  async function waitForLine(taskId: number, line: string): Promise<void> {
    await expect.poll(() => p.output(taskId), { timeout: 20_000, interval: 50 }).toContain(line);
  }

  it('a stop leaves none of the processes the task started running, setsid and double-forked ones included', async () => {
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'plain.sh' }));
    await waitForLine(taskId, 'planted');
    const pids = plantedPids(plain.dir);
    expect(pids.every(isRunning)).toBe(true);
    expect(
      (await t.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: t.adminCookie, body: { force: false } })).status,
    ).toBe(204);
    expect((await p.waitForStatus(taskId, ['stopped', 'error', 'success'])).status).toBe('stopped');
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('a force stop of a task already stopping kills it at once instead of waiting for the grace period', async () => {
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'stubborn.sh' }));
    await waitForLine(taskId, 'planted');
    const pids = plantedPids(stubborn.dir);
    expect(
      (await t.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: t.adminCookie, body: { force: false } })).status,
    ).toBe(204);
    await waitForLine(taskId, 'got TERM');
    expect((await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).body).toMatchObject({
      status: 'stopping',
    });
    const forced = Date.now();
    expect(
      (await t.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: t.adminCookie, body: { force: true } })).status,
    ).toBe(204);
    expect((await p.waitForStatus(taskId, ['stopped', 'error', 'success'], 10_000)).status).toBe('stopped');
    expect(Date.now() - forced).toBeLessThan(5000);
    expect(pids.filter(isRunning)).toEqual([]);
  });
});

describe('a server killed while a task runs a process tree', () => {
  const { scripts, start, startScriptTask } = useServerStore('tree-restart', 'tree-Pass-1');

  it('the restarted server kills every process the task left, though the script that started them is dead too', async () => {
    const { dir, script } = plantingTaskScript('echo "leader $$"\nexec sleep 327');
    writeFileSync(path.join(scripts, 'tree.sh'), script);
    const { port, server, call, base, taskId } = await startScriptTask({
      project: 'Tree',
      template: 'Tree',
      playbook: 'tree.sh',
    });

    const output = async () =>
      (await call<{ output: string }[]>('GET', `${base}/tasks/${taskId}/output`)).map((l) => l.output);
    await expect.poll(output, { timeout: 20_000, interval: 50 }).toContain('planted');
    const pids = plantedPids(dir);
    const leader = Number((await output()).find((line) => line.startsWith('leader '))?.slice(7));

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    // Nothing of the task died with the server. Its leader dies now: recovery cannot rely on it.
    expect(pids.filter(isRunning)).toEqual(pids);
    expect(isOurSleeper(leader)).toBe(true);
    process.kill(leader, 'SIGKILL');
    await expect.poll(() => isRunning(leader)).toBe(false);

    await start(port);
    // Recovery runs once the server listens.
    await expect
      .poll(async () => (await call('GET', `${base}/tasks/${taskId}`)).status, { timeout: 20_000 })
      .toBe('error');
    expect(await output()).toContain('Its processes, still running, were stopped.');
    expect(pids.filter(isRunning)).toEqual([]);
  });
});

describe('a runner killed while a task runs a process tree (sqlite)', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-tree-runner-'));
  const planted = plantingTaskScript('sleep 327');
  const children: ChildProcess[] = [];
  let p: ProjectFixture;
  let url = '';

  const t = useTestApp('sqlite', { use_remote_runner: true });
  beforeAll(async () => {
    t.runtime.services.runnerJobs.start();
    p = await createProjectFixture(t, { 'tree.sh': planted.script });
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  });

  function startRunner(token: string): CapturedProcess {
    const runner = spawnGantryCommand(['runner', 'start', '--server', url, '--work-dir', workDir], {
      GANTRY_RUNNER_TOKEN: token,
    });
    children.push(runner.child);
    return runner;
  }

  it('the restarted runner kills every process its earlier run left', async () => {
    const created = await t.request('POST', `${p.base}/runners`, { as: t.adminCookie, body: { name: 'tree-runner' } });
    expect(created.status, created.text).toBe(201);
    const { token } = created.body as { token: string };
    t.secrets.add(token);
    const first = startRunner(token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'tree.sh' }));
    await expect.poll(() => p.output(taskId), { timeout: 30_000, interval: 100 }).toContain('planted');
    const pids = plantedPids(planted.dir);

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(pids.filter(isRunning)).toEqual(pids);

    const second = startRunner(token);
    await expect.poll(second.output, { timeout: 30_000 }).toContain('Runner started');
    expect(second.output()).toMatch(/Stopped \d+ processes that tasks of an earlier run of this runner left running\./);
    expect(pids.filter(isRunning)).toEqual([]);
  }, 90_000);
});
