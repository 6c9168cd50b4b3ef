import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Clock } from '../src/clock.ts';
import { openRuntime } from '../src/runtime.ts';
import { expectLongPollHearsForceStop } from './runner-fixture.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { spawnGantryCommand, type CapturedProcess } from './server-process-fixture.ts';
import { listen, type TestApp, type TestResponse, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

interface CreatedRunner {
  id: number;
  token: string;
}

/** A clock the test can move forward, to age heartbeats without waiting. */
function createMovableClock(): Clock & { advance(ms: number): void } {
  let shift = 0;
  return { now: () => new Date(Date.now() + shift), advance: (ms) => (shift += ms) };
}

async function createRunner(
  t: TestApp,
  url: string,
  body: Record<string, unknown> = {},
  as = t.adminCookie,
): Promise<CreatedRunner> {
  const response = await t.request('POST', url, {
    as,
    body: { name: `runner-${Math.random().toString(36).slice(2, 7)}`, ...body },
  });
  expect(response.status, response.text).toBe(201);
  return response.body as CreatedRunner;
}

/** The runner protocol as a runner speaks it, through the test app. */
function protocol(t: TestApp, token: string, startedAt = '2026-01-01T00:00:00.000Z') {
  const headers = { 'x-runner-token': token, 'x-runner-started-at': startedAt };
  return {
    poll: () => t.request('GET', '/api/internal/runners', { headers }),
    report: (jobs: unknown[]) => t.request('PUT', '/api/internal/runners', { headers, body: { Jobs: jobs } }),
    /** Polls until the server hands out a job (a runner's first poll makes it alive and wakes the dispatcher). */
    async nextJob(): Promise<{ id: number; spec: Record<string, unknown> }> {
      for (let i = 0; i < 200; i++) {
        const state = (await this.poll()).body as { new_jobs: { id: number; spec: Record<string, unknown> }[] };
        const job = state.new_jobs[0];
        if (job) return job;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('no job was handed out');
    },
  };
}

function records(from: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({ time: new Date().toISOString(), message: `line ${from + i}` }));
}

describe.each(dialects)('runner management on %s', (dialect) => {
  let projectId: number;
  let otherProjectId: number;
  let manager: { id: number; cookie: string };
  let taskRunner: { id: number; cookie: string };

  const t = useTestApp(dialect);
  beforeAll(async () => {
    projectId = (
      (await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Runners' } })).body as {
        id: number;
      }
    ).id;
    otherProjectId = (
      (await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Other' } })).body as { id: number }
    ).id;
    manager = await t.createUser('runner-manager');
    taskRunner = await t.createUser('runner-operator');
    for (const [user, role] of [
      [manager, 'manager'],
      [taskRunner, 'task_runner'],
    ] as const) {
      expect(
        (
          await t.request('POST', `/api/project/${projectId}/users`, {
            as: t.adminCookie,
            body: { user_id: user.id, role },
          })
        ).status,
      ).toBe(204);
    }
  });

  it('creates a global runner whose token is shown once, then lists, edits, toggles and deletes it', async () => {
    const created = await t.request('POST', '/api/runners', {
      as: t.adminCookie,
      body: { name: 'build-box', webhook: '', max_parallel_tasks: 3, active: true },
    });
    expect(created.status).toBe(201);
    const runner = created.body as CreatedRunner & Record<string, unknown>;
    expect(runner).toMatchObject({
      name: 'build-box',
      project_id: null,
      webhook: '',
      max_parallel_tasks: 3,
      active: true,
      touched: null,
    });
    expect(runner.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    t.secrets.add(runner.token);

    const list = await t.request('GET', '/api/runners', { as: t.adminCookie });
    expect(list.body).toEqual([expect.objectContaining({ id: runner.id, name: 'build-box' })]);
    expect((await t.request('GET', `/api/runners/${runner.id}`, { as: t.adminCookie })).body).not.toHaveProperty(
      'token',
    );

    expect(
      (
        await t.request('PUT', `/api/runners/${runner.id}`, {
          as: t.adminCookie,
          body: { name: 'renamed', max_parallel_tasks: null, webhook: 'https://hooks.example.com/r' },
        })
      ).status,
    ).toBe(204);
    expect(
      (await t.request('POST', `/api/runners/${runner.id}/active`, { as: t.adminCookie, body: { active: false } }))
        .status,
    ).toBe(204);
    expect((await t.request('GET', `/api/runners/${runner.id}`, { as: t.adminCookie })).body).toMatchObject({
      name: 'renamed',
      max_parallel_tasks: 0,
      webhook: 'https://hooks.example.com/r',
      active: false,
    });
    expect((await t.request('DELETE', `/api/runners/${runner.id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('GET', `/api/runners/${runner.id}`, { as: t.adminCookie })).body).toEqual({
      error: 'Runner not found',
      code: 'not_found',
    });
    // The deleted runner's token no longer opens the protocol.
    expect((await protocol(t, runner.token).poll()).status).toBe(404);
  });

  it('rejects bad runner input with the seed messages', async () => {
    const bad = async (body: unknown) =>
      (await t.request('POST', '/api/runners', { as: t.adminCookie, body })) as TestResponse;
    expect((await bad({ name: '' })).body).toMatchObject({ error: 'Name is required' });
    expect((await bad({})).body).toMatchObject({ error: 'Name is required' });
    expect((await bad({ name: 'x', max_parallel_tasks: -1 })).body).toMatchObject({ error: 'Must be 0 or greater' });
    expect((await bad({ name: 'x', max_parallel_tasks: 1.5 })).body).toMatchObject({ error: 'Must be integer' });
    expect((await bad({ name: 'x', webhook: 'ftp://nope' })).status).toBe(400);
    expect(
      (await t.request('POST', '/api/runners/abc/active', { as: t.adminCookie, body: { active: true } })).status,
    ).toBe(400);
    const runner = await createRunner(t, '/api/runners');
    expect(
      (await t.request('POST', `/api/runners/${runner.id}/active`, { as: t.adminCookie, body: { active: 'yes' } }))
        .body,
    ).toMatchObject({ error: 'Invalid request body' });
    expect(
      (
        await t.request('PUT', `/api/runners/${runner.id}`, {
          as: t.adminCookie,
          body: { id: runner.id + 1, name: 'x' },
        })
      ).status,
    ).toBe(400);
  });

  it('keeps global runners to admins and project runners to members who manage the project, each in its own scope', async () => {
    expect((await t.request('GET', '/api/runners', { as: manager.cookie })).status).toBe(403);
    expect((await t.request('POST', '/api/runners', { as: manager.cookie, body: { name: 'x' } })).status).toBe(403);
    expect((await t.request('GET', '/api/runners')).status).toBe(401);

    const base = `/api/project/${projectId}/runners`;
    const own = await createRunner(t, base, {}, manager.cookie);
    expect((await t.request('GET', base, { as: manager.cookie })).body).toEqual([
      expect.objectContaining({ id: own.id, project_id: projectId }),
    ]);
    expect((await t.request('GET', base, { as: taskRunner.cookie })).status).toBe(403);
    expect((await t.request('POST', base, { as: taskRunner.cookie, body: { name: 'x' } })).status).toBe(403);
    expect((await t.request('DELETE', `${base}/${own.id}`, { as: taskRunner.cookie })).status).toBe(403);
    expect((await t.request('GET', `/api/project/${otherProjectId}/runners`, { as: manager.cookie })).status).toBe(404);

    // A project runner is not reachable through another project or the global routes, and vice versa.
    expect(
      (await t.request('GET', `/api/project/${otherProjectId}/runners/${own.id}`, { as: t.adminCookie })).status,
    ).toBe(404);
    expect((await t.request('GET', `/api/runners/${own.id}`, { as: t.adminCookie })).status).toBe(404);
    const global = await createRunner(t, '/api/runners');
    expect((await t.request('GET', `${base}/${global.id}`, { as: manager.cookie })).status).toBe(404);
    expect((await t.request('GET', '/api/runners', { as: t.adminCookie })).body).not.toContainEqual(
      expect.objectContaining({ id: own.id }),
    );

    expect(
      (await t.request('POST', `${base}/${own.id}/active`, { as: manager.cookie, body: { active: false } })).status,
    ).toBe(204);
    expect(
      (
        await t.request('PUT', `${base}/${own.id}`, {
          as: manager.cookie,
          body: { name: 'mine', max_parallel_tasks: 2 },
        })
      ).status,
    ).toBe(204);
    expect((await t.request('DELETE', `${base}/${own.id}`, { as: manager.cookie })).status).toBe(204);
  });

  it('deletes a project with its runners', async () => {
    const project = (
      (await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Doomed' } })).body as { id: number }
    ).id;
    const runner = await createRunner(t, `/api/project/${project}/runners`);
    expect((await t.request('DELETE', `/api/project/${project}`, { as: t.adminCookie })).status).toBe(204);
    expect((await protocol(t, runner.token).poll()).status).toBe(404);
  });
});

describe.each(dialects)('runner protocol on %s', (dialect) => {
  let p: ProjectFixture;
  const clock = createMovableClock();

  const t = useTestApp(
    dialect,
    { runner_registration_token: 'register-Me-123', runner_offline_seconds: 30 },
    { clock },
  );
  beforeAll(async () => {
    t.secrets.add('register-Me-123');
    p = await createProjectFixture(t, { 'hello.sh': 'echo hello\n' });
  });

  /** A new runner of the project and the protocol it speaks, polled once so the server counts it alive. */
  async function connectRunner(body: Record<string, unknown> = {}) {
    const runner = await createRunner(t, `${p.base}/runners`, body);
    const client = protocol(t, runner.token);
    await client.poll();
    return { runner, client };
  }

  /** Deletes the runners a test made, so that no later task goes to them. */
  async function deleteRunners(...runners: CreatedRunner[]) {
    for (const runner of runners) await t.request('DELETE', `${p.base}/runners/${runner.id}`, { as: t.adminCookie });
  }

  it('answers a runner without a valid token as the reference does', async () => {
    expect(await t.request('GET', '/api/internal/runners')).toMatchObject({
      status: 401,
      body: { error: 'Invalid token' },
    });
    expect(await protocol(t, 'not-a-token').poll()).toMatchObject({ status: 404, body: { error: 'Runner not found' } });
    expect((await protocol(t, 'not-a-token').report([])).status).toBe(404);
    expect((await t.request('DELETE', '/api/internal/runners', { headers: { 'x-runner-token': 'nope' } })).status).toBe(
      404,
    );
  });

  it('refuses a malformed runner report or poll with 400, never a server error', async () => {
    const runner = await createRunner(t, `${p.base}/runners`);
    const r = protocol(t, runner.token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    await r.nextJob();
    const bad: unknown[][] = [
      [{ ID: 2 ** 31, LogOffset: 0, LogRecords: [] }],
      [{ ID: taskId, LogOffset: 0, LogRecords: [{ time: 'x'.repeat(41), message: 'a line' }] }],
      [{ ID: taskId, LogOffset: 0, LogRecords: [{ time: 'yesterday', message: 'a line' }] }],
      [{ ID: taskId, LogOffset: -1, LogRecords: [] }],
      [{ ID: taskId, LogOffset: 2 ** 31, LogRecords: [] }],
      [{ ID: taskId, Status: 'waiting', LogOffset: 0, LogRecords: [] }],
      [{ ID: taskId, LogOffset: 0, LogRecords: [], Commit: { hash: 'h'.repeat(65), message: '' } }],
      [{ ID: 'one' }],
    ];
    for (const jobs of bad) expect((await r.report(jobs)).status, JSON.stringify(jobs).slice(0, 200)).toBe(400);
    expect(
      (
        await t.request('PUT', '/api/internal/runners', {
          headers: { 'x-runner-token': runner.token },
          body: { Jobs: 'all' },
        })
      ).status,
    ).toBe(400);
    expect(
      await r.report([{ ID: taskId, LogOffset: 0, LogRecords: [{ time: 'yesterday', message: 'a line' }] }]),
    ).toMatchObject({
      status: 400,
      body: { error: 'Jobs.0.LogRecords.0.time must be an RFC 3339 time' },
    });
    expect(
      (await t.request('GET', '/api/internal/runners?wait=soon', { headers: { 'x-runner-token': runner.token } }))
        .status,
    ).toBe(400);
    // Ids past the integer columns' range are refused at the edge, in a path as in a body.
    expect((await t.request('GET', `${p.base}/runners/99999999999`, { as: t.adminCookie })).status).toBe(400);
    expect(
      (
        await t.request('POST', '/api/internal/runners', {
          body: { registration_token: 'register-Me-123', project_id: 2 ** 31 },
        })
      ).status,
    ).toBe(400);
    // Nothing of the refused reports reached the task.
    expect(await p.waitForStatus(taskId, ['starting'])).toMatchObject({ runner_id: runner.id });
    expect(await p.output(taskId)).toEqual([]);
    await deleteRunners(runner);
  });

  it('registers runners only with the configured registration token, and unregisters them', async () => {
    expect(await t.request('POST', '/api/internal/runners', { body: { registration_token: 'wrong' } })).toMatchObject({
      status: 400,
      body: { error: 'Invalid registration token' },
    });
    expect((await t.request('POST', '/api/internal/runners', { rawBody: '{oops' })).status).toBe(400);
    expect(
      (
        await t.request('POST', '/api/internal/runners', {
          body: { registration_token: 'register-Me-123', project_id: 999999 },
        })
      ).status,
    ).toBe(400);
    const registered = await t.request('POST', '/api/internal/runners', {
      body: { registration_token: 'register-Me-123', name: 'self-made', max_parallel_tasks: 2 },
    });
    expect(registered.status).toBe(200);
    const token = (registered.body as { token: string }).token;
    t.secrets.add(token);
    expect((await t.request('GET', '/api/runners', { as: t.adminCookie })).body).toContainEqual(
      expect.objectContaining({ name: 'self-made', max_parallel_tasks: 2 }),
    );
    expect((await protocol(t, token).poll()).status).toBe(200);
    expect((await t.request('DELETE', '/api/internal/runners', { headers: { 'x-runner-token': token } })).status).toBe(
      204,
    );
    expect((await protocol(t, token).poll()).status).toBe(404);
  });

  it('hands a project task to its runner, stores resent batches once, and finishes it with the reported status', async () => {
    const runner = await createRunner(t, `${p.base}/runners`);
    const r = protocol(t, runner.token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    const job = await r.nextJob();
    expect(job.id).toBe(taskId);
    expect(job.spec).toMatchObject({ task_id: taskId, project_id: p.projectId, playbook: 'hello.sh', app: 'bash' });
    expect(await p.waitForStatus(taskId, ['starting'])).toMatchObject({ runner_id: runner.id });

    const first = await r.report([{ ID: taskId, Status: 'running', LogOffset: 0, LogRecords: records(0, 3) }]);
    expect(first.body).toEqual({ terminated_jobs: [], log_offsets: { [taskId]: 3 } });
    expect((await p.waitForStatus(taskId, ['running'])).start).not.toBeNull();
    expect((await t.request('GET', '/api/tasks', { as: t.adminCookie })).body).toContainEqual(
      expect.objectContaining({
        task_id: taskId,
        runner_id: runner.id,
        runner_name: expect.stringMatching(/^runner-/),
      }),
    );
    // A resent batch overlapping what the server holds adds only the new lines; one past a gap adds nothing.
    expect((await r.report([{ ID: taskId, LogOffset: 1, LogRecords: records(1, 4) }])).body).toMatchObject({
      log_offsets: { [taskId]: 5 },
    });
    expect(
      (await r.report([{ ID: taskId, LogOffset: 9, LogRecords: records(9, 1), Status: 'success' }])).body,
    ).toMatchObject({ log_offsets: { [taskId]: 5 } });
    expect((await p.waitForStatus(taskId, ['running'])).status).toBe('running');
    expect(
      (
        await r.report([
          {
            ID: taskId,
            LogOffset: 5,
            LogRecords: records(5, 1),
            Status: 'success',
            Commit: { hash: 'abc123', message: 'first' },
          },
        ])
      ).status,
    ).toBe(200);
    const task = await p.waitForStatus(taskId, ['success']);
    expect(task).toMatchObject({ commit_hash: 'abc123', runner_id: runner.id });
    const lines = await p.output(taskId);
    expect(lines[0]).toMatch(new RegExp(`^Task ${taskId} \\(.+\\) started by admin on runner runner-`));
    expect(lines.slice(1)).toEqual([
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      'Task finished successfully.',
    ]);
    // Reports about a finished task tell the runner to drop it.
    expect((await r.report([{ ID: taskId, LogOffset: 6, LogRecords: records(6, 1) }])).body).toMatchObject({
      terminated_jobs: [taskId],
    });
    await deleteRunners(runner);
  });

  it('stores what a task printed, relayed by its runner, even a NUL or half of a surrogate pair, as a line run here would be', async () => {
    const runner = await createRunner(t, `${p.base}/runners`);
    const r = protocol(t, runner.token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    expect((await r.nextJob()).id).toBe(taskId);
    const time = new Date().toISOString();
    const report = await r.report([
      {
        ID: taskId,
        Status: 'success',
        LogOffset: 0,
        LogRecords: ['nul \u0000 here', 'cut emoji \ud83d', '\ude80 rest', 'whole 🚀'].map((message) => ({
          time,
          message,
        })),
        Commit: { hash: 'abc123', message: 'commit \u0000 message' },
      },
    ]);
    expect(report.status, report.text).toBe(200);
    expect((await p.waitForStatus(taskId, ['success'])).commit_message).toBe('commit \ufffd message');
    expect((await p.output(taskId)).slice(1, 5)).toEqual([
      'nul \ufffd here',
      'cut emoji \ufffd',
      '\ufffd rest',
      'whole 🚀',
    ]);
    await deleteRunners(runner);
  });

  it("runs tasks of projects without runners in the server, and never gives a runner another project's task", async () => {
    const other = await createProjectFixture(t, { 'hello.sh': 'echo local run\n' });
    const { runner, client } = await connectRunner();
    const taskId = await other.runTask(await other.createTemplate({ playbook: 'hello.sh' }));
    expect(await other.waitForStatus(taskId, ['success'])).toMatchObject({ runner_id: null });
    expect(await other.output(taskId)).toContain('local run');
    expect(((await client.poll()).body as { new_jobs: unknown[] }).new_jobs).toEqual([]);
    await deleteRunners(runner);
  });

  it('gives no task to an inactive or silent runner, and stops a running remote task through the runner', async () => {
    // The project has an active runner that never connected: its tasks wait for a runner instead of running here.
    const absent = await createRunner(t, `${p.base}/runners`);
    const { runner, client: r } = await connectRunner({ active: false });
    const templateId = await p.createTemplate({ playbook: 'hello.sh' });
    const taskId = await p.runTask(templateId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(((await r.poll()).body as { new_jobs: unknown[] }).new_jobs).toEqual([]);
    expect((await p.waitForStatus(taskId, ['waiting'])).status).toBe('waiting');
    expect(
      (await t.request('POST', `${p.base}/runners/${runner.id}/active`, { as: t.adminCookie, body: { active: true } }))
        .status,
    ).toBe(204);
    expect((await r.nextJob()).id).toBe(taskId);
    // A long poll does not answer at once again with the job it already handed out; after the wait it still lists it.
    const beforeRepeat = Date.now();
    const repeated = await t.request('GET', '/api/internal/runners?wait=1', {
      headers: { 'x-runner-token': runner.token, 'x-runner-started-at': '2026-01-01T00:00:00.000Z' },
    });
    expect(Date.now() - beforeRepeat).toBeGreaterThanOrEqual(900);
    expect((repeated.body as { new_jobs: { id: number }[] }).new_jobs.map((job) => job.id)).toEqual([taskId]);
    await r.report([{ ID: taskId, Status: 'running', LogOffset: 0, LogRecords: records(0, 1) }]);
    // A long poll answers at once when what the runner knows changed, and waits when nothing did.
    await expectLongPollHearsForceStop(t, t, p.base, runner.token, taskId, 10);
    expect((await p.waitForStatus(taskId, ['stopping'])).status).toBe('stopping');
    await r.report([{ ID: taskId, Status: 'stopped', LogOffset: 1, LogRecords: [] }]);
    expect((await p.waitForStatus(taskId, ['stopped'])).end).not.toBeNull();
    await deleteRunners(runner, absent);
  });

  /** A task on a new runner that reported its plan and now waits for confirmation. */
  async function runToConfirmation() {
    const runner = await createRunner(t, `${p.base}/runners`);
    const r = protocol(t, runner.token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    await r.nextJob();
    await r.report([{ ID: taskId, Status: 'running', LogOffset: 0, LogRecords: [] }]);
    await r.report([
      { ID: taskId, Status: 'waiting_confirmation', LogOffset: 0, LogRecords: records(0, 1), Plan: RUNNER_PLAN },
    ]);
    await p.waitForStatus(taskId, ['waiting_confirmation']);
    return { runner, r, taskId };
  }

  const RUNNER_PLAN = {
    recap: { add: 1, change: 0, destroy: 1 },
    resources: [{ address: 'null_resource.a', action: 'replace' }],
    truncated: false,
  };

  it("stores the plan summary a runner reports with the task's wait for confirmation", async () => {
    const { runner, taskId } = await runToConfirmation();
    expect((await t.request('GET', `${p.base}/tasks/${taskId}/plan`, { as: t.adminCookie })).body).toEqual(RUNNER_PLAN);
    expect((await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).body).toMatchObject({
      plan_recap: RUNNER_PLAN.recap,
    });
    await deleteRunners(runner);
  });

  it('passes a plan confirmation to the runner through the task status', async () => {
    const { runner, r, taskId } = await runToConfirmation();
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/confirm`, { as: t.adminCookie })).status).toBe(204);
    expect(((await r.poll()).body as { CurrentJobs: unknown[] }).CurrentJobs).toEqual([
      { id: taskId, status: 'confirmed', force: false },
    ]);
    await r.report([{ ID: taskId, Status: 'running', LogOffset: 1, LogRecords: [] }]);
    await p.waitForStatus(taskId, ['running']);
    await r.report([{ ID: taskId, Status: 'success', LogOffset: 1, LogRecords: records(1, 1) }]);
    await p.waitForStatus(taskId, ['success']);
    await deleteRunners(runner);
  });

  it("closes a runner task whose plan is rejected as rejected, and drops it from the runner's jobs", async () => {
    const { runner, r, taskId } = await runToConfirmation();
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/reject`, { as: t.adminCookie })).status).toBe(204);
    const rejected = await p.waitForStatus(taskId, ['rejected']);
    expect(rejected.end).not.toBeNull();
    expect((await p.output(taskId)).slice(-2)).toEqual(['The plan was rejected.', 'Task rejected.']);
    expect(((await r.poll()).body as { CurrentJobs: unknown[] }).CurrentJobs).toEqual([]);
    expect((await r.report([{ ID: taskId, Status: 'stopped', LogOffset: 1, LogRecords: [] }])).body).toMatchObject({
      terminated_jobs: [taskId],
    });
    expect((await p.waitForStatus(taskId, ['rejected'])).status).toBe('rejected');
    await deleteRunners(runner);
  });

  it('fails the started task of a silent runner and hands its unstarted task to another runner', async () => {
    const { runner: silent, client: s } = await connectRunner({ max_parallel_tasks: 2 });
    const templateId = await p.createTemplate({ playbook: 'hello.sh', allow_parallel_tasks: true });
    const started = await p.runTask(templateId);
    const unstarted = await p.runTask(templateId);
    await p.waitForStatus(unstarted, ['starting']);
    expect(await p.waitForStatus(started, ['starting'])).toMatchObject({ runner_id: silent.id });
    await s.report([{ ID: started, Status: 'running', LogOffset: 0, LogRecords: records(0, 1) }]);

    clock.advance(31_000);
    const healthy = await createRunner(t, `${p.base}/runners`);
    await t.runtime.services.runnerJobs.sweep();
    const failed = await p.waitForStatus(started, ['error']);
    expect(failed.end).not.toBeNull();
    const lines = await p.output(started);
    expect(lines.at(-2)).toMatch(
      /^Runner #\d+ \(.+\) has not called the server for 3\d s; the task was running there and is marked failed\.$/,
    );
    expect(lines.at(-1)).toBe('Task failed.');

    const h = protocol(t, healthy.token);
    expect((await h.nextJob()).id).toBe(unstarted);
    expect(await p.output(unstarted)).toEqual([
      expect.stringMatching(/the task was never sent there and was returned to the queue\.$/),
    ]);
    // The lost runner coming back cannot report on a task that is no longer its own.
    expect((await s.report([{ ID: unstarted, Status: 'running', LogOffset: 0, LogRecords: [] }])).body).toMatchObject({
      terminated_jobs: [unstarted],
    });
    await h.report([{ ID: unstarted, Status: 'success', LogOffset: 0, LogRecords: [] }]);
    await p.waitForStatus(unstarted, ['success']);
    await deleteRunners(silent, healthy);
  });

  it('fails, never hands around, a task a runner was sent before it fell silent: it may have run there', async () => {
    const { runner: silent, client: s } = await connectRunner();
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    // The runner got the job (and would start it at once), then lost the server before its first report.
    expect((await s.nextJob()).id).toBe(taskId);
    clock.advance(31_000);
    const healthy = await createRunner(t, `${p.base}/runners`);
    await t.runtime.services.runnerJobs.sweep();
    const failed = await p.waitForStatus(taskId, ['error']);
    expect(failed.end).not.toBeNull();
    expect((await p.output(taskId)).slice(-2)).toEqual([
      expect.stringMatching(/had been sent the task and may have started it, so it is marked failed\.$/),
      'Task failed.',
    ]);
    expect(((await protocol(t, healthy.token).poll()).body as { new_jobs: unknown[] }).new_jobs).toEqual([]);
    await deleteRunners(silent, healthy);
  });

  it('sends a deactivated runner none of the tasks placed on it before, and queues them again', async () => {
    const { runner: first, client: f } = await connectRunner();
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    expect(await p.waitForStatus(taskId, ['starting'])).toMatchObject({ runner_id: first.id });
    const { runner: second, client: n } = await connectRunner();
    const deactivate = { as: t.adminCookie, body: { active: false } };
    expect((await t.request('POST', `${p.base}/runners/${first.id}/active`, deactivate)).status).toBe(204);
    expect(((await f.poll()).body as { new_jobs: unknown[] }).new_jobs).toEqual([]);
    expect((await p.output(taskId))[0]).toMatch(
      /^Runner #\d+ \(.+\) was deactivated; the task was never sent there and was returned to the queue\.$/,
    );
    expect((await n.nextJob()).id).toBe(taskId);
    await n.report([{ ID: taskId, Status: 'success', LogOffset: 0, LogRecords: [] }]);
    await p.waitForStatus(taskId, ['success']);
    await deleteRunners(first, second);
  });

  it('writes a runner name holding line breaks and control characters into the start line as one line', async () => {
    const runner = await createRunner(t, `${p.base}/runners`, {
      name: 'ctl\u001b[31mred\nFAKE: Task finished successfully.\u202e',
    });
    const r = protocol(t, runner.token);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    await r.nextJob();
    await r.report([{ ID: taskId, Status: 'success', LogOffset: 0, LogRecords: [] }]);
    await p.waitForStatus(taskId, ['success']);
    const output = await p.output(taskId);
    expect(output).toHaveLength(2);
    expect(output[0]).toMatch(
      /^Task \d+ \(.+\) started by .+ on runner ctl \[31mred FAKE: Task finished successfully\. \.$/,
    );
    await deleteRunners(runner);
  });

  it('keeps the task of a runner whose process start header is longer than the server stores', async () => {
    const runner = await createRunner(t, `${p.base}/runners`);
    const r = protocol(t, runner.token, `2026-01-01T00:00:00.000Z ${'x'.repeat(40)}`);
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hello.sh' }));
    await r.nextJob();
    await r.report([{ ID: taskId, Status: 'running', LogOffset: 0, LogRecords: [] }]);
    await p.waitForStatus(taskId, ['running']);
    expect(((await r.poll()).body as { CurrentJobs: unknown[] }).CurrentJobs).toEqual([
      { id: taskId, status: 'running', force: false },
    ]);
    await r.report([{ ID: taskId, Status: 'success', LogOffset: 0, LogRecords: [] }]);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('success');
    await deleteRunners(runner);
  });

  it('fails the started tasks of a runner that restarted, and of a runner that was deleted', async () => {
    const runner = await createRunner(t, `${p.base}/runners`);
    const templateId = await p.createTemplate({ playbook: 'hello.sh' });
    const r = protocol(t, runner.token, '2026-01-01T00:00:00.000Z');
    const first = await p.runTask(templateId);
    await r.nextJob();
    await r.report([{ ID: first, Status: 'running', LogOffset: 0, LogRecords: [] }]);
    await protocol(t, runner.token, '2026-01-02T00:00:00.000Z').poll();
    await p.waitForStatus(first, ['error']);
    expect((await p.output(first)).join('\n')).toContain('restarted; the task was running there and is marked failed.');

    const second = await p.runTask(templateId);
    await r.nextJob();
    await r.report([{ ID: second, Status: 'running', LogOffset: 0, LogRecords: [] }]);
    expect((await t.request('DELETE', `${p.base}/runners/${runner.id}`, { as: t.adminCookie })).status).toBe(204);
    await p.waitForStatus(second, ['error']);
    expect((await p.output(second)).join('\n')).toContain(
      `Runner #${runner.id} was deleted; the task was running there and is marked failed.`,
    );
  });
});

describe.each(dialects)('runner registration guessing on %s', (dialect) => {
  const t = useTestApp(dialect, {
    runner_registration_token: 'register-Me-123',
    login_max_failures: 3,
    login_failure_window_seconds: 600,
  });

  it('counts wrong registration tokens per address like failed sign-ins, then refuses even the right one', async () => {
    t.secrets.add('register-Me-123');
    const register = (token: string) =>
      t.request('POST', '/api/internal/runners', { body: { registration_token: token, name: 'guess' } });
    const right = await register('register-Me-123');
    expect(right.status).toBe(200);
    t.secrets.add((right.body as { token: string }).token);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await register(`wrong-${i}`)).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const throttled = await register('register-Me-123');
    expect(throttled.status).toBe(429);
    expect(throttled.body).toMatchObject({ error: expect.stringMatching(/^Too many wrong registration tokens/) });
  });
});

describe('gantry runner processes against a listening server (sqlite)', () => {
  const hasAnsible = spawnSync('ansible-playbook', ['--version']).status === 0;
  let p: ProjectFixture;
  let url = '';
  let port = 0;
  const children: ChildProcess[] = [];
  const workDirs: string[] = [];

  const t = useTestApp('sqlite', {
    use_remote_runner: true,
    runner_offline_seconds: 3,
    runner_registration_token: 'reg-Token-42',
  });
  beforeAll(async () => {
    t.secrets.add('reg-Token-42');
    t.runtime.services.runnerJobs.start();
    p = await createProjectFixture(t, {
      'count.sh':
        'echo "token=$API_TOKEN"\necho "runner token=${GANTRY_RUNNER_TOKEN:-none}"\nfor i in $(seq 1 500); do echo "n$i"; done\n',
      'slow.sh': 'for i in $(seq 1 30); do echo "s$i"; sleep 0.1; done\n',
      'hang.sh': 'echo "pid $$"\nsleep 30\necho never\n',
      // Printed at once: more than one report may carry, in bytes (20 MB) and in lines (30000).
      'flood.sh':
        'line=$(printf "%08000d" 0)\nfor i in $(seq 1 2500); do echo "f$i $line"; done\nseq -f "g%.0f" 1 30000\n',
      'site.yml': [
        '- hosts: all',
        '  gather_facts: false',
        '  tasks:',
        '    - debug: msg="hello from the runner"',
        '',
      ].join('\n'),
    });
    url = await listen(t.app);
    port = Number(new URL(url).port);
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  });

  function startRunner(token: string): CapturedProcess {
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-runner-'));
    workDirs.push(workDir);
    const runner = spawnGantryCommand(['runner', 'start', '--server', url, '--work-dir', workDir], {
      GANTRY_RUNNER_TOKEN: token,
    });
    children.push(runner.child);
    return runner;
  }

  /** Runs a short gantry command without blocking this process, which serves the API it calls. */
  async function runGantry(
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const command = spawnGantryCommand(args, env);
    const status = await new Promise<number | null>((resolve) => command.child.on('close', resolve));
    return { status, stdout: command.stdout(), stderr: command.stderr() };
  }

  async function waitUntilConnected(runnerId: number, list: string): Promise<void> {
    await expect
      .poll(
        async () =>
          ((await t.request('GET', list, { as: t.adminCookie })).body as { id: number; touched: string | null }[]).find(
            (r) => r.id === runnerId,
          )?.touched ?? null,
        { timeout: 20_000, interval: 100 },
      )
      .not.toBeNull();
  }

  /** A runner of the project (its token a secret) started as a process of its own and connected. */
  async function startProjectRunner(): Promise<{ runner: CreatedRunner; process: CapturedProcess }> {
    const runner = await createRunner(t, `${p.base}/runners`);
    t.secrets.add(runner.token);
    const started = startRunner(runner.token);
    await waitUntilConnected(runner.id, `${p.base}/runners`);
    return { runner, process: started };
  }

  it.skipIf(!hasAnsible)(
    'a project runner process runs bash and ansible tasks and streams every line in order',
    async () => {
      const { runner, process: process1 } = await startProjectRunner();

      // A secret of the variable group travels to the runner and is masked in the output it sends back.
      t.secrets.add('tok-Secret-777');
      const groupId = await p.createVariableGroup('with secret', [
        { type: 'env', name: 'API_TOKEN', secret: 'tok-Secret-777' },
      ]);
      const bashTask = await p.runTask(await p.createTemplate({ playbook: 'count.sh', environment_id: groupId }));
      const bash = await p.waitForStatus(bashTask, ['success', 'error'], 60_000);
      const bashLines = await p.output(bashTask);
      expect(bash.status, `${bashLines.join('\n')}\n${process1.output()}`).toBe('success');
      expect(bash.runner_id).toBe(runner.id);
      expect(bashLines.filter((l) => /^n\d+$/.test(l))).toEqual(Array.from({ length: 500 }, (_, i) => `n${i + 1}`));
      expect(bashLines[0]).toContain('on runner');
      expect(bashLines).toContain('token=********');
      // The runner's own token, in its environment, is not handed down to the task.
      expect(bashLines).toContain('runner token=none');
      expect(bashLines.at(-1)).toBe('Task finished successfully.');

      const inventoryId = await p.createLocalInventory();
      const ansibleTask = await p.runTask(
        await p.createTemplate({
          app: 'ansible',
          playbook: 'site.yml',
          inventory_id: inventoryId,
        }),
      );
      const ansible = await p.waitForStatus(ansibleTask, ['success', 'error'], 120_000);
      const ansibleLines = await p.output(ansibleTask);
      expect(ansible.status, ansibleLines.join('\n')).toBe('success');
      expect(ansible.runner_id).toBe(runner.id);
      expect(ansibleLines.join('\n')).toContain('hello from the runner');
      expect(ansibleLines.join('\n')).toMatch(/PLAY RECAP/);
      process1.child.kill('SIGTERM');
    },
    180_000,
  );

  it('a runner killed in the middle of a task leaves the task failed, not running', async () => {
    const { runner, process: process1 } = await startProjectRunner();
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'hang.sh' }));
    await p.waitForStatus(taskId, ['running'], 30_000);
    // The first line arrives while the script still runs: lines stream, they are not sent at the end.
    await expect
      .poll(async () => (await p.output(taskId)).some((l) => l.startsWith('pid ')), { timeout: 20_000 })
      .toBe(true);
    const pid = Number((await p.output(taskId)).find((l) => l.startsWith('pid '))?.slice(4));
    process1.child.kill('SIGKILL');
    try {
      const task = await p.waitForStatus(taskId, ['error', 'stopped', 'success'], 20_000);
      expect(task.status).toBe('error');
      const lines = await p.output(taskId);
      expect(lines.join('\n')).toMatch(
        /has not called the server for \d+ s; the task was running there and is marked failed\./,
      );
      expect(lines).not.toContain('never');
    } finally {
      if (pid > 0) process.kill(-pid, 'SIGKILL');
    }
    await t.request('DELETE', `${p.base}/runners/${runner.id}`, { as: t.adminCookie });
  }, 60_000);

  it('an idle runner waiting in a long poll exits within a few seconds of SIGTERM', async () => {
    const { runner, process: idle } = await startProjectRunner();
    // Let it settle into a long poll that the server would hold for up to 20 s.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalled = Date.now();
    idle.child.kill('SIGTERM');
    const code = await new Promise((resolve) => idle.child.once('exit', (exitCode) => resolve(exitCode)));
    expect(Date.now() - signalled).toBeLessThan(5000);
    expect(code).toBe(0);
    await t.request('DELETE', `${p.base}/runners/${runner.id}`, { as: t.adminCookie });
  }, 60_000);

  it('two global runners share ten tasks', async () => {
    const other = await createProjectFixture(t, { 'work.sh': 'sleep 0.3\necho done\n' });
    const first = await createRunner(t, '/api/runners');
    const second = await createRunner(t, '/api/runners');
    startRunner(first.token);
    startRunner(second.token);
    await waitUntilConnected(first.id, '/api/runners');
    await waitUntilConnected(second.id, '/api/runners');
    const templateId = await other.createTemplate({ playbook: 'work.sh', allow_parallel_tasks: true });
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) ids.push(await other.runTask(templateId));
    const tasks = [];
    for (const id of ids) tasks.push(await other.waitForStatus(id, ['success', 'error'], 60_000));
    expect(tasks.map((task) => task.status)).toEqual(Array(10).fill('success'));
    const perRunner = new Map<unknown, number>();
    for (const task of tasks) perRunner.set(task.runner_id, (perRunner.get(task.runner_id) ?? 0) + 1);
    expect([...perRunner.keys()].sort()).toEqual([first.id, second.id].sort());
    expect(Math.min(...perRunner.values())).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('registers and unregisters a runner from the command line, keeping the token in a 0600 file', async () => {
    const tokenFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'gantry-token-')), 'runner.token');
    workDirs.push(path.dirname(tokenFile));
    const register = await runGantry(
      [
        'runner',
        'register',
        '--server',
        url,
        '--name',
        'cli-made',
        '--max-parallel-tasks',
        '3',
        '--token-file',
        tokenFile,
      ],
      { GANTRY_RUNNER_REGISTRATION_TOKEN: 'reg-Token-42' },
    );
    expect(register.status, register.stderr).toBe(0);
    expect(register.stdout).toContain(`its token is in ${tokenFile}`);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const listed = (
      (await t.request('GET', '/api/runners', { as: t.adminCookie })).body as {
        id: number;
        name: string;
        max_parallel_tasks: number;
      }[]
    ).find((r) => r.name === 'cli-made');
    expect(listed?.max_parallel_tasks).toBe(3);

    const wrong = await runGantry(['runner', 'register', '--server', url], {
      GANTRY_RUNNER_REGISTRATION_TOKEN: 'nope',
    });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('Invalid registration token');

    // Secrets are refused on the command line, where every user of the machine can read them.
    for (const [option, variable] of [
      ['--token', 'GANTRY_RUNNER_TOKEN'],
      ['--registration-token', 'GANTRY_RUNNER_REGISTRATION_TOKEN'],
    ] as const)
      for (const command of ['start', 'register', 'unregister']) {
        const refused = await runGantry(['runner', command, '--server', url, option, 'reg-Token-42']);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toContain(`${option} would show`);
        expect(refused.stderr).toContain(variable);
      }

    const unregister = await runGantry(['runner', 'unregister', '--server', url, '--token-file', tokenFile]);
    expect(unregister.status, unregister.stderr).toBe(0);
    expect(
      ((await t.request('GET', '/api/runners', { as: t.adminCookie })).body as { name: string }[]).map((r) => r.name),
    ).not.toContain('cli-made');
  }, 60_000);

  it('a task that prints more than one report holds and ends at once keeps every line before its final status', async () => {
    const { runner, process: process1 } = await startProjectRunner();
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'flood.sh' }));
    const task = await p.waitForStatus(taskId, ['success', 'error'], 60_000);
    expect(task.status, process1.output()).toBe('success');
    const lines = await p.output(taskId);
    const numbers = lines.filter((l) => /^f\d+ 0{8000}$/.test(l)).map((l) => Number(l.slice(1, l.indexOf(' '))));
    expect(numbers).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(lines.filter((l) => /^g\d+$/.test(l))).toEqual(Array.from({ length: 30000 }, (_, i) => `g${i + 1}`));
    expect(lines.at(-1)).toBe('Task finished successfully.');
    process1.child.kill('SIGTERM');
    await t.request('DELETE', `${p.base}/runners/${runner.id}`, { as: t.adminCookie });
  }, 90_000);

  // Last: it replaces the listening server.
  it('a runner keeps its running task through a server restart and finishes it with every line', async () => {
    const { process: process1 } = await startProjectRunner();
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'slow.sh' }));
    await expect.poll(async () => (await p.output(taskId)).includes('s3'), { timeout: 30_000 }).toBe(true);

    // A second server on the same store and port replaces the first one while the task runs.
    await t.app.close();
    const runtime = await openRuntime(t.runtime.config);
    const app = await buildApp({ config: t.runtime.config, services: runtime.services, verifyResponses: true });
    try {
      await app.listen({ port, host: '127.0.0.1' });
      runtime.services.runnerJobs.start();
      const deadline = Date.now() + 30_000;
      let status = '';
      while (Date.now() < deadline && !['success', 'error'].includes(status)) {
        status = ((await runtime.services.tasks.get(p.projectId, taskId)) as { status: string }).status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lines = (await runtime.services.tasks.output(p.projectId, taskId)).map((l) => l.output);
      expect(status, `${lines.join('\n')}\n${process1.output()}`).toBe('success');
      expect(lines.filter((l) => /^s\d+$/.test(l))).toEqual(Array.from({ length: 30 }, (_, i) => `s${i + 1}`));
      expect(process1.output()).toContain('Reconnected to the server.');
    } finally {
      await app.close();
      await runtime.close();
    }
  }, 90_000);
});
