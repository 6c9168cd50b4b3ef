import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMembers, createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

type TaskRow = {
  id: number;
  status: string;
  retry_of_task_id: number | null;
  retry_attempt: number;
  retry_limit: number;
};

describe.each(dialects)('retries of failed tasks on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  /** Moved forward by tests of a delayed retry: the retries read this clock. */
  let offsetMs = 0;
  const clock = { now: () => new Date(Date.now() + offsetMs) };
  const marks = mkdtempSync(path.join(os.tmpdir(), 'gantry-retry-'));

  const send = (method: string, p2: string, body?: unknown) =>
    t.request(method, `${p.base}${p2}`, { as: t.adminCookie, ...(body === undefined ? {} : { body }) });
  const tasksOf = async (templateId: number) =>
    ((await send('GET', `/templates/${templateId}/tasks`)).body as TaskRow[]).sort((a, b) => a.id - b.id);
  async function waitForTasks(templateId: number, count: number, statuses: string[]): Promise<TaskRow[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const tasks = await tasksOf(templateId);
      if (tasks.length >= count && tasks.every((task) => statuses.includes(task.status))) return tasks;
      if (Date.now() > deadline) throw new Error(`tasks: ${JSON.stringify(tasks.map((x) => [x.id, x.status]))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Runs every node's retry sweep once with this server's clock `ms` ahead, then sets the clock back. */
  async function sweepLater(ms: number): Promise<void> {
    offsetMs += ms;
    try {
      await t.runtime.services.retrySweep.round();
    } finally {
      offsetMs -= ms;
    }
  }
  /** Waits until the task's log says a retry is due (the after-task work writes it just after the final status). */
  async function waitForLine(taskId: number, line: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await p.output(taskId)).includes(line) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
  }

  beforeAll(async () => {
    t = await createTestApp(dialect, {}, { clock });
    p = await createProjectFixture(t, {
      'fail.sh': 'echo failing\nexit 3\n',
      'flaky.sh': 'if [ -e "$1" ]; then echo recovered; else touch "$1"; exit 1; fi\n',
      'slow.sh': 'sleep 30\n',
    });
  });
  afterAll(() => t.close());

  it('retries a failed task N times, each retry a task of its own linked to the first, then stops', async () => {
    const templateId = await p.createTemplate({ playbook: 'fail.sh', retries: 2 });
    const template = (await send('GET', `/templates/${templateId}`)).body as Record<string, unknown>;
    expect(template).toMatchObject({ retries: 2, retry_delay_seconds: 0 });
    const first = await p.runTask(templateId);
    const tasks = await waitForTasks(templateId, 3, ['error']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await tasksOf(templateId)).toHaveLength(3);
    expect(tasks.map((x) => [x.retry_of_task_id, x.retry_attempt, x.retry_limit])).toEqual([
      [null, 0, 2],
      [first, 1, 2],
      [first, 2, 2],
    ]);
    const [, second, third] = tasks;
    expect(await p.output(first)).toEqual(
      expect.arrayContaining(['Retry 1 of 2 in 0 seconds.', `Retry 1 of 2: task ${second?.id}.`]),
    );
    expect((await p.output(third!.id))[0]).toBe(`Retry 2 of 2 of task ${first}.`);
    expect(await p.output(second!.id)).toEqual(expect.arrayContaining([`Retry 2 of 2: task ${third?.id}.`]));
    expect((await p.output(third!.id)).some((line) => line.startsWith('Retry 3'))).toBe(false);
  });

  it('stops retrying once a retry succeeds, and never retries a template without retries', async () => {
    const mark = path.join(marks, `flaky-${dialect}`);
    const templateId = await p.createTemplate({ playbook: 'flaky.sh', arguments: JSON.stringify([mark]), retries: 3 });
    await p.runTask(templateId);
    const tasks = await waitForTasks(templateId, 2, ['error', 'success']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await tasksOf(templateId)).map((x) => x.status)).toEqual(['error', 'success']);
    expect(tasks[1]?.retry_attempt).toBe(1);

    const plain = await p.createTemplate({ playbook: 'fail.sh' });
    await p.waitForStatus(await p.runTask(plain), ['error']);
    await t.runtime.services.retrySweep.round();
    expect(await tasksOf(plain)).toHaveLength(1);
  });

  it('does not retry a stopped task', async () => {
    const templateId = await p.createTemplate({ playbook: 'slow.sh', retries: 2 });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['running']);
    expect((await send('POST', `/tasks/${taskId}/stop`, {})).status).toBe(204);
    await p.waitForStatus(taskId, ['stopped']);
    await sweepLater(120_000);
    expect(await tasksOf(templateId)).toHaveLength(1);
  });

  it('keeps a due retry in the store: after the delay another server (as after a restart) makes it, once', async () => {
    const templateId = await p.createTemplate({ playbook: 'fail.sh', retries: 1, retry_delay_seconds: 60 });
    const first = await p.runTask(templateId);
    await p.waitForStatus(first, ['error']);
    await waitForLine(first, 'Retry 1 of 1 in 60 seconds.');
    await t.runtime.services.retrySweep.round();
    expect(await tasksOf(templateId)).toHaveLength(1);
    expect(await p.output(first)).toContain('Retry 1 of 1 in 60 seconds.');
    const later = { now: () => new Date(Date.now() + 61_000) };
    const { db_url, access_key_encryption } = t.runtime.config;
    const other = await createTestApp(dialect, { db_url, access_key_encryption }, { clock: later });
    try {
      await other.runtime.services.retrySweep.round();
      await waitForTasks(templateId, 2, ['error']);
    } finally {
      await other.app.close();
      await other.runtime.close();
    }
    // The first server, its clock past the delay too, finds nothing left to make.
    await sweepLater(61_000);
    const tasks = await waitForTasks(templateId, 2, ['error']);
    expect(tasks.map((x) => [x.retry_of_task_id, x.retry_attempt])).toEqual([
      [null, 0],
      [first, 1],
    ]);
  });

  it('makes no retry for a user who may no longer run tasks by the time it is due, and says so in the log', async () => {
    const templateId = await p.createTemplate({ playbook: 'fail.sh', retries: 1, retry_delay_seconds: 60 });
    const { runner } = await addProjectMembers(t, p.base, `retry-${dialect}`, { runner: 'task_runner' });
    const started = await t.request('POST', `${p.base}/tasks`, {
      as: runner.cookie,
      body: { template_id: templateId },
    });
    expect(started.status).toBe(201);
    const first = (started.body as { id: number }).id;
    await p.waitForStatus(first, ['error']);
    await waitForLine(first, 'Retry 1 of 1 in 60 seconds.');
    const demoted = await send('PUT', `/users/${runner.id}`, { role: 'guest' });
    expect(demoted.status).toBe(204);
    await sweepLater(61_000);
    expect(await tasksOf(templateId)).toHaveLength(1);
    expect(await p.output(first)).toContain(
      'Retry 1 of 1 not made: who started the task may no longer run tasks in this project.',
    );
  });

  it('refuses bad retry settings and keeps them when a client leaves them out', async () => {
    const fields = p.templateBody({ name: 'Retry', playbook: 'fail.sh' });
    for (const [body, message] of [
      [{ retries: 11 }, 'Retries must be 0 to 10'],
      [{ retries: -1 }, 'Retries must be 0 to 10'],
      [{ retries: 'two' }, 'Retries must be 0 to 10'],
      [{ retries: 1.5 }, 'Retries must be 0 to 10'],
      [{ retry_delay_seconds: 86_401 }, 'Retry delay must be 0 to 86400 seconds'],
    ] as const) {
      const response = await send('POST', '/templates', { ...fields, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as { error: string }).error).toContain(message);
    }
    const templateId = await p.createTemplate({ playbook: 'fail.sh', retries: 4, retry_delay_seconds: 30 });
    expect((await send('PUT', `/templates/${templateId}`, { ...fields, id: templateId })).status).toBe(204);
    expect((await send('GET', `/templates/${templateId}`)).body).toMatchObject({ retries: 4, retry_delay_seconds: 30 });
  });
});
