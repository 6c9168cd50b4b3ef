import type {
  RunnerJob,
  RunnerJobProgress,
  RunnerProgressResult,
  RunnerRegisterBody,
  RunnerState,
} from '@gantry/contract';
import { FINISHED_TASK_STATUSES } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import type { Audience, LiveHub } from '../../http/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import { finalLine, type TaskEngine, type TaskPlacement } from '../tasks/task-engine.ts';
import type { TaskSpecBuilder } from '../tasks/task-spec-builder.ts';
import type { TasksRepository } from '../tasks/tasks.repository.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';
import { createPlacer } from './runner-placement.ts';
import { hashSecret, isSameSecret } from '../../secrets/secret-hash.ts';
import type { RunnersRepository, RunnerTaskRow } from './runners.repository.ts';
import type { RunnersService } from './runners.service.ts';
import type { RunnerRow } from './runners.table.ts';

type JobProgress = z.output<typeof RunnerJobProgress>;
type Outcome = 'success' | 'error' | 'stopped';

export interface RunnerJobsDeps {
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  runners: RunnersRepository;
  runnersService: RunnersService;
  tasks: TasksRepository;
  specs: TaskSpecBuilder;
  engine(): TaskEngine;
  hub: LiveHub;
  events: EventsService;
  audienceOf(projectId: number): Promise<Audience>;
  describeStart(
    task: TaskRow,
  ): Promise<{ username: string | null; incomingVersion: string | null; templateName: string }>;
  projectExists(projectId: number): Promise<boolean>;
  /** Tells the other server processes of a cluster, whose long polls may hold the runner. */
  broadcast?(runnerId: number, taskId: number, change: RunnerChange): void;
}

type RunnerChange = Parameters<TaskPlacement['notify']>[2];

const STARTED_STATUSES = ['running', 'waiting_confirmation', 'confirmed', 'rejected', 'stopping'];
const MAX_POLL_WAIT_SECONDS = 20;
const TOUCH_EVERY_MS = 1000;

/**
 * The server's half of remote running: places queued tasks on runners, serves the runner protocol
 * (jobs out, lines and statuses in) and closes the tasks of runners that went silent. Statuses always
 * change through the engine, so local and remote tasks follow the same rules.
 */
export function createRunnerJobs(deps: RunnerJobsDeps) {
  const offlineMs = deps.config.runner_offline_seconds * 1000;
  const startedAt = deps.clock.now().getTime();
  const lastAssigned = new Map<number, number>();
  const forceStops = new Set<number>();
  /** Bumped on every change a runner must hear about; long polls wait for it to move. */
  const versions = new Map<number, number>();
  const waiters = new Map<number, Set<() => void>>();
  /** What each runner last heard about its started jobs: a poll answers at once when that changed. */
  const lastReported = new Map<number, string>();
  const taskLocks = new Map<number, Promise<unknown>>();
  let sweepTimer: NodeJS.Timeout | undefined;
  let closing = false;

  const now = () => toTimestamp(deps.clock.now());
  const isAlive = (runner: Pick<RunnerRow, 'touched'>) =>
    runner.touched !== null && deps.clock.now().getTime() - Date.parse(runner.touched) <= offlineMs;

  function bump(runnerId: number): void {
    versions.set(runnerId, (versions.get(runnerId) ?? 0) + 1);
    const waiting = waiters.get(runnerId);
    waiters.delete(runnerId);
    for (const resolve of waiting ?? []) resolve();
  }

  function waitForChange(runnerId: number, since: number, ms: number): Promise<void> {
    if ((versions.get(runnerId) ?? 0) !== since || closing || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const set = waiters.get(runnerId) ?? new Set();
      waiters.set(runnerId, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  /** Runs the work of one task strictly after the previous work of the same task (resent reports may overlap). */
  function withTaskLock<T>(taskId: number, work: () => Promise<T>): Promise<T> {
    const previous = taskLocks.get(taskId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    taskLocks.set(taskId, next);
    void next
      .finally(() => {
        if (taskLocks.get(taskId) === next) taskLocks.delete(taskId);
      })
      .catch(() => undefined);
    return next;
  }

  async function writeLines(task: Pick<TaskRow, 'id' | 'project_id'>, outputs: string[]): Promise<void> {
    const time = now();
    const result = await deps.runners.appendOutput(
      task.id,
      outputs.map((output) => ({ time, output })),
      null,
    );
    if (result) deps.hub.publishLines(await deps.audienceOf(task.project_id), task, result.stored);
  }

  function callWebhook(
    runnerId: number,
    task: Pick<TaskRow, 'id' | 'project_id' | 'template_id'>,
    action: 'start' | 'finish',
  ): void {
    void (async () => {
      const runner = await deps.runners.findById(runnerId);
      if (!runner?.webhook) return;
      const body = {
        action,
        project_id: task.project_id,
        task_id: task.id,
        template_id: task.template_id,
        runner_id: runnerId,
      };
      const response = await fetch(runner.webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok)
        deps.logger.warn(
          { runnerId, taskId: task.id, status: response.status },
          'runner webhook answered with an error',
        );
    })().catch((error: unknown) =>
      deps.logger.warn({ err: error, runnerId, taskId: task.id }, 'runner webhook failed'),
    );
  }

  /** A runner lost a task: one it never started goes back to the queue, a started one is closed. */
  async function releaseTask(row: RunnerTaskRow, reason: string): Promise<void> {
    await withTaskLock(row.id, async () => {
      const task = await deps.tasks.findById(row.id);
      if (!task || task.runner_id !== row.runner_id || FINISHED_TASK_STATUSES.includes(task.status as never)) return;
      const engine = deps.engine();
      if (task.status === 'starting') {
        if (await engine.transition(task, ['starting'], 'waiting', { runner_id: null })) {
          await writeLines(task, [`${reason}; the task never started there and was returned to the queue.`]);
          engine.wake();
        }
        return;
      }
      const outcome: Outcome = task.status === 'stopping' ? 'stopped' : 'error';
      await writeLines(task, [
        `${reason}; the task was running there and is marked ${outcome === 'stopped' ? 'stopped' : 'failed'}.`,
        finalLine(outcome),
      ]);
      await engine.settle(task, outcome);
    });
  }

  async function sweep(): Promise<void> {
    const nowMs = deps.clock.now().getTime();
    for (const row of await deps.runners.listRunnerTasks()) {
      if (row.runner_name === null) {
        await releaseTask(row, `Runner #${row.runner_id} was deleted`);
        continue;
      }
      // After a server restart runners get a full timeout to come back before their tasks are judged.
      const lastSeen = Math.max(row.runner_touched ? Date.parse(row.runner_touched) : 0, startedAt);
      if (nowMs - lastSeen <= offlineMs) continue;
      await releaseTask(
        row,
        `Runner #${row.runner_id} (${row.runner_name}) has not called the server for ${Math.round((nowMs - lastSeen) / 1000)} s`,
      );
    }
  }

  async function authenticate(token: string | undefined): Promise<RunnerRow> {
    if (!token) throw unauthorized('Invalid token');
    const runner = await deps.runners.findByTokenHash(hashSecret(token));
    if (!runner) throw notFound('Runner');
    return runner;
  }

  /** The heartbeat. A runner process that started anew has lost the jobs it was running. */
  async function touch(runner: RunnerRow, startedAtHeader: string | undefined): Promise<void> {
    // Cut to what the column holds before comparing, or a longer value would look like a restart at every call.
    const processStartedAt = startedAtHeader?.slice(0, 40);
    const wasAlive = isAlive(runner);
    const restarted =
      processStartedAt !== undefined && runner.started_at !== null && runner.started_at !== processStartedAt;
    const fresh = runner.touched !== null && deps.clock.now().getTime() - Date.parse(runner.touched) < TOUCH_EVERY_MS;
    // Reports arrive many times a second while a task streams; the heartbeat needs only one write a second.
    if (fresh && !restarted && (processStartedAt === undefined || runner.started_at === processStartedAt)) return;
    await deps.runners.update(runner.id, {
      touched: now(),
      ...(processStartedAt !== undefined ? { started_at: processStartedAt } : {}),
    });
    if (restarted) {
      // The new process knows nothing yet: its first poll answers at once.
      lastReported.delete(runner.id);
      for (const row of await deps.runners.listRunnerTasks(runner.id)) {
        if (STARTED_STATUSES.includes(row.status))
          await releaseTask(row, `Runner #${runner.id} (${runner.name}) restarted`);
      }
    }
    if (!wasAlive) deps.engine().wake();
  }

  async function buildJob(row: RunnerTaskRow): Promise<RunnerJob | undefined> {
    const task = await deps.tasks.findById(row.id);
    if (!task) return undefined;
    try {
      const about = await deps.describeStart(task);
      return {
        id: task.id,
        spec: await deps.specs.build(task, { username: about.username, incomingVersion: about.incomingVersion }),
      };
    } catch (error) {
      // The same task would fail the same way on any runner: close it instead of handing it around.
      await withTaskLock(task.id, async () => {
        await writeLines(task, [
          `Failed to run task: ${error instanceof Error ? error.message : String(error)}`,
          finalLine('error'),
        ]);
        await deps.engine().settle(task, 'error');
      });
      return undefined;
    }
  }

  async function buildState(runner: RunnerRow): Promise<RunnerState> {
    const state: RunnerState = { CurrentJobs: [], new_jobs: [], access_keys: {} };
    for (const row of await deps.runners.listRunnerTasks(runner.id)) {
      if (row.status !== 'starting') {
        state.CurrentJobs.push({
          id: row.id,
          status: row.status as RunnerState['CurrentJobs'][number]['status'],
          force: forceStops.has(row.id),
        });
        continue;
      }
      const job = await buildJob(row);
      if (job) state.new_jobs.push(job);
    }
    return state;
  }

  async function markStarted(runner: RunnerRow, task: TaskRow, audience: Audience): Promise<boolean> {
    if (!(await deps.engine().transition(task, ['starting'], 'running', { start: now(), secret: null }, audience)))
      return false;
    const about = await deps.describeStart(task);
    await writeLines(task, [
      `Task ${task.id} (${about.templateName}) started${about.username ? ` by ${about.username}` : ''} on runner ${runner.name}.`,
    ]);
    await deps.events.record({
      userId: task.user_id,
      projectId: task.project_id,
      objectType: 'task',
      objectId: task.id,
      description: `Task ${task.id} (${about.templateName}) started on runner ${runner.name}`,
    });
    return true;
  }

  /** Applies one job's report; returns how many of its lines the server holds, or undefined when the runner must drop the job. */
  async function applyProgress(runner: RunnerRow, job: JobProgress): Promise<number | undefined> {
    const task = await deps.tasks.findById(job.ID);
    if (!task || task.runner_id !== runner.id || FINISHED_TASK_STATUSES.includes(task.status as never))
      return undefined;
    const engine = deps.engine();
    const audience = await deps.audienceOf(task.project_id);
    if (task.status === 'starting' && !(await markStarted(runner, task, audience))) return undefined;

    const records = job.LogRecords.map((r) => ({ time: r.time, output: r.message }));
    const appended = await deps.runners.appendOutput(task.id, records, job.LogOffset);
    if (!appended) return undefined;
    deps.hub.publishLines(audience, task, appended.stored);
    if (job.Commit)
      await deps.tasks.update(task.id, {
        commit_hash: job.Commit.hash,
        commit_message: job.Commit.message.slice(0, 255),
      });
    // A status change comes after the lines that led to it; with lines missing, wait for them.
    if (appended.runnerLogOffset < job.LogOffset + records.length || !job.Status) return appended.runnerLogOffset;

    if (job.Status === 'waiting_confirmation')
      await engine.transition(task, ['running'], 'waiting_confirmation', {}, audience);
    else if (job.Status === 'running') await engine.transition(task, ['confirmed'], 'running', {}, audience);
    else {
      await writeLines(task, [finalLine(job.Status)]);
      if (await engine.settle(task, job.Status)) callWebhook(runner.id, task, 'finish');
      forceStops.delete(task.id);
    }
    return appended.runnerLogOffset;
  }

  const placement: TaskPlacement = {
    async plan(active) {
      return createPlacer({
        runners: await deps.runners.listActive(),
        active,
        useRemoteRunner: deps.config.use_remote_runner,
        isAlive,
        lastAssigned,
      });
    },
    notify(runnerId, taskId, change) {
      if (change === 'force_stop') forceStops.add(taskId);
      bump(runnerId);
      deps.broadcast?.(runnerId, taskId, change);
      if (change === 'assigned') {
        void deps.tasks.findById(taskId).then((task) => task && callWebhook(runnerId, task, 'start'));
      }
    },
  };

  return {
    placement,

    /** Another server process changed a runner's work: answer its long poll here if it waits on this one. */
    hear(runnerId: number, taskId: number, change: RunnerChange): void {
      if (change === 'force_stop') forceStops.add(taskId);
      bump(runnerId);
    },

    async register(body: z.output<typeof RunnerRegisterBody>): Promise<{ token: string }> {
      // The registration token opens every task's secrets to the runner it creates: no timing hints about it.
      if (
        !deps.config.runner_registration_token ||
        !isSameSecret(body.registration_token, deps.config.runner_registration_token)
      ) {
        throw badRequest('Invalid registration token');
      }
      const projectId = body.project_id ?? null;
      if (projectId !== null && !(await deps.projectExists(projectId))) throw badRequest('Project not found');
      const created = await deps.runnersService.create(undefined, projectId, {
        name: body.name || 'Runner',
        webhook: body.webhook ?? '',
        max_parallel_tasks: body.max_parallel_tasks ?? 0,
        active: true,
      });
      return { token: created.token };
    },

    /** Whether a runner token is known, so that its task output may be larger than an anonymous body. */
    async isKnownToken(token: string): Promise<boolean> {
      return (await deps.runners.findByTokenHash(hashSecret(token))) !== undefined;
    },

    async unregister(token: string | undefined): Promise<void> {
      const runner = await authenticate(token);
      await deps.runnersService.remove(undefined, runner.project_id, runner.id);
    },

    /** The runner's heartbeat and job fetch; waits up to `wait` seconds for news when there is none. */
    async poll(token: string | undefined, processStartedAt: string | undefined, wait = 0): Promise<RunnerState> {
      const runner = await authenticate(token);
      await touch(runner, processStartedAt);
      const since = versions.get(runner.id) ?? 0;
      // A job stays listed until the runner's first report starts it: one already handed out does not end
      // the next wait again, or the runner would poll in a tight loop, its spec rebuilt every time.
      const summary = (state: RunnerState) => JSON.stringify([state.CurrentJobs, state.new_jobs.map((job) => job.id)]);
      const answer = (state: RunnerState) => {
        lastReported.set(runner.id, summary(state));
        return state;
      };
      const state = await buildState(runner);
      if (wait <= 0 || lastReported.get(runner.id) !== summary(state)) return answer(state);
      const waitSeconds = Math.min(wait, MAX_POLL_WAIT_SECONDS, Math.floor(deps.config.runner_offline_seconds / 3));
      await waitForChange(runner.id, since, waitSeconds * 1000);
      return answer((versions.get(runner.id) ?? 0) === since ? state : await buildState(runner));
    },

    async progress(token: string | undefined, jobs: JobProgress[]): Promise<RunnerProgressResult> {
      const runner = await authenticate(token);
      await touch(runner, undefined);
      const result: RunnerProgressResult = { terminated_jobs: [], log_offsets: {} };
      for (const job of jobs) {
        const offset = await withTaskLock(job.ID, () => applyProgress(runner, job));
        if (offset === undefined) result.terminated_jobs.push(job.ID);
        else result.log_offsets[String(job.ID)] = offset;
      }
      return result;
    },

    /** Closes the tasks of a deleted runner at once instead of waiting for the sweep. */
    async releaseRunner(runnerId: number): Promise<void> {
      bump(runnerId);
      lastReported.delete(runnerId);
      for (const row of await deps.runners.listRunnerTasks(runnerId))
        await releaseTask(row, `Runner #${runnerId} was deleted`);
    },

    sweep,

    start(): void {
      if (sweepTimer) return;
      closing = false;
      const interval = Math.max(500, Math.floor(offlineMs / 4));
      sweepTimer = setInterval(
        () => void sweep().catch((error: unknown) => deps.logger.error({ err: error }, 'runner sweep failed')),
        interval,
      );
    },

    /** Ends pending long polls (before the HTTP server closes) and the sweep. */
    close(): void {
      closing = true;
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = undefined;
      for (const runnerId of [...waiters.keys()]) bump(runnerId);
    },
  };
}

export type RunnerJobs = ReturnType<typeof createRunnerJobs>;
