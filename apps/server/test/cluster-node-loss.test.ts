import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRunning } from '../../../packages/runner/test/support/process-state.ts';
import { freePort } from './machine.ts';
import {
  createScriptProject,
  signInToProcess,
  startServerProcess,
  waitForScriptPid,
} from './server-process-fixture.ts';
import {
  createTestDatabase,
  listClusterDialects,
  serverStoreEnvironment,
  TEST_REDIS_URL,
  type TestDatabase,
} from './test-databases.ts';

// Several nodes need a shared server store: SQLite serves one machine only.
const dialects = (await listClusterDialects()).filter((dialect) => dialect !== 'sqlite');

describe.each(dialects)('a Gantry node SIGKILLed in a cluster on %s', (dialect) => {
  const scripts = mkdtempSync(path.join(os.tmpdir(), 'gantry-node-loss-scripts-'));
  const dataDirs = [
    mkdtempSync(path.join(os.tmpdir(), 'gantry-node-loss-a-')),
    mkdtempSync(path.join(os.tmpdir(), 'gantry-node-loss-b-')),
  ];
  const children: ChildProcess[] = [];
  let database: TestDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = { ...serverStoreEnvironment(database, 'node-Loss-Pass-1'), GANTRY_REDIS_URL: TEST_REDIS_URL };
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await database?.drop();
    for (const dir of [scripts, ...dataDirs]) rmSync(dir, { recursive: true, force: true });
  });

  async function startNode(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
    const started = await startServerProcess({ dataDir, port: await freePort(), env });
    children.push(started.child);
    return started;
  }

  it('is noticed within 15 s by the survivor, which starts the task it left queued; back, it ends the processes of its closed task', async () => {
    writeFileSync(path.join(scripts, 'long.sh'), 'echo "pid $$"\nsleep 300\n');
    writeFileSync(path.join(scripts, 'short.sh'), 'echo done\n');
    const [dirA = '', dirB = ''] = dataDirs;
    const a = await startNode(dirA);
    const callA = await signInToProcess(a.url, 'admin', 'node-Loss-Pass-1');
    // One task at a time in the project: the second waits in the queue of node A when A dies.
    const { base, createTemplate } = await createScriptProject(callA, scripts, {
      name: 'Node loss',
      max_parallel_tasks: 1,
    });
    const template = (playbook: string) => createTemplate({ name: playbook, playbook, allow_parallel_tasks: true });
    const long = await callA('POST', `${base}/tasks`, { template_id: await template('long.sh') });
    const scriptPid = await waitForScriptPid(callA, base, long.id);
    expect(scriptPid).toBeGreaterThan(0);
    const queued = await callA('POST', `${base}/tasks`, { template_id: await template('short.sh') });

    const b = await startNode(dirB);
    const callB = await signInToProcess(b.url, 'admin', 'node-Loss-Pass-1');
    expect((await callB('GET', `${base}/tasks/${queued.id}`)).status).toBe('waiting');
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((resolve) => a.child.once('exit', resolve));

    let noticedAfter = Infinity;
    for (let i = 0; i < 400; i++) {
      if ((await callB('GET', `${base}/tasks/${long.id}`)).status === 'error') {
        noticedAfter = Date.now() - killedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(noticedAfter).toBeLessThanOrEqual(15_000);
    await expect
      .poll(async () => (await callB('GET', `${base}/tasks/${queued.id}`)).status, { timeout: 10_000 })
      .toBe('success');
    // The dead node's machine is still running the task's processes: nothing on B can reach them.
    expect(isRunning(scriptPid)).toBe(true);

    await startNode(dirA);
    await expect.poll(() => isRunning(scriptPid), { timeout: 10_000 }).toBe(false);
    const lines = (await callB<{ output: string }[]>('GET', `${base}/tasks/${long.id}/output`)).map((l) => l.output);
    expect(lines).toContain(
      'The Gantry server running this task stopped answering; the task can no longer be followed and was closed.',
    );
    expect(lines.at(-1)).toBe(
      'Gantry came back on the machine that ran this task and stopped its processes, still running.',
    );
  }, 60_000);
});
