import type { RunnerJob, RunnerJobProgress, RunnerProgressResult, RunnerState } from '@gantry/contract';
import { isTaskFinished } from '@gantry/contract';
import type { TaskOutcome } from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Audience } from '../../live/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import type { TaskEngine } from '../tasks/task-engine.ts';
import type { TaskHostsService } from '../tasks/task-hosts.ts';
import type { TaskPlans } from '../tasks/task-plan.ts';
import type { TaskOutputsService } from '../tasks/task-outputs.ts';
import type { TaskOutput } from '../tasks/task-output.ts';
import { finalLine } from '../tasks/task-statuses.ts';
import type { TaskSpecBuilder } from '../tasks/task-spec-builder.ts';
import { recordStartEvent, startNotes, type DescribeStart } from '../tasks/task-start.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';
import type { RunnerPlacement } from './runner-placement.ts';
import { authenticateRunner } from './runner-token.ts';
import type { RunnersRepository, RunnerTaskRow } from './runners.repository.ts';
import type { RunnerRow } from './runners.table.ts';

type JobProgress = z.output<typeof RunnerJobProgress>;
type Outcome = 'success' | 'error' | 'stopped';

export interface RunnerJobsDeps {
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  runners: RunnersRepository;
  specs: TaskSpecBuilder;
  engine: TaskEngine;
  placement: RunnerPlacement;
  output: TaskOutput;
  events: EventsService;
  audienceOf(projectId: number): Promise<Audience>;
  describeStart: DescribeStart;
  saveHosts: TaskHostsService['save'];
  savePlan: TaskPlans['save'];
  saveOutputs: TaskOutputsService['save'];
}

const STARTED_STATUSES = ['running', 'waiting_confirmation', 'confirmed', 'rejected', 'stopping'];
const MAX_POLL_WAIT_SECONDS = 20;
const TOUCH_EVERY_MS = 1000;

/**
 * The server's half of remote running: serves the runner protocol (jobs out, lines and statuses in)
 * and closes the tasks of runners that went silent. Statuses always
 * change through the engine, so local and remote tasks follow the same rules.
 */
export function createRunnerJobs(deps: RunnerJobsDeps) {
  const offlineMs = deps.config.runner_offline_seconds * 1000;
  const startedAt = deps.clock.now().getTime();
  const { placement, engine } = deps;
  /** What each runner last heard about its started jobs: a poll answers at once when that changed. */
  const lastReported = new Map<number, string>();
  const taskLocks = new Map<number, Promise<unknown>>();
  let sweepTimer: NodeJS.Timeout | undefined;

  const now = () => toTimestamp(deps.clock.now());

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

  /**
   * Gives a task `runnerId` was never sent back to the queue, with the line saying why, once however
   * many nodes decide so at once; false when the runner may have it (it was sent, or moved on).
   */
  async function requeueUnsent(task: TaskRow, runnerId: number, reason: string): Promise<boolean> {
    const changes = { status: 'waiting' as const, runner_id: null };
    const requeued = await deps.output.writeIf(
      task,
      [`${reason}; the task was never sent there and was returned to the queue.`],
      (row) => row.status === 'starting' && row.runner_id === runnerId && row.sent_to_runner === null,
      changes,
    );
    if (requeued) await engine.announce(task, changes.status, changes);
    return requeued;
  }

  /**
   * Closes a task of `runnerId` with the lines saying why and the final line, once however many nodes
   * decide so at once, and only while the task is still that runner's and unfinished.
   */
  async function close(task: TaskRow, runnerId: number, lines: string[], outcome: TaskOutcome): Promise<boolean> {
    const changes = { status: outcome, end: now(), pid: null };
    const closed = await deps.output.writeIf(
      task,
      [...lines, finalLine(outcome)],
      (row) => row.runner_id === runnerId && !isTaskFinished(row.status),
      changes,
    );
    if (closed) await engine.announce(task, outcome, changes);
    return closed;
  }

  /**
   * A runner lost a task: one it was never sent goes back to the queue; one it was sent may have run
   * there (a runner starts a job as it gets it), so like a started one it is closed, never run twice.
   */
  async function releaseTask(row: RunnerTaskRow, reason: string): Promise<void> {
    await withTaskLock(row.id, async () => {
      const task = await engine.findTask(row.id);
      if (!task || task.runner_id !== row.runner_id || isTaskFinished(task.status)) return;
      if (task.status === 'starting' && (await requeueUnsent(task, row.runner_id, reason))) return;
      const outcome: Outcome = task.status === 'stopping' ? 'stopped' : 'error';
      const marked = outcome === 'stopped' ? 'stopped' : 'failed';
      const line =
        task.status === 'starting'
          ? `${reason}; the runner had been sent the task and may have started it, so it is marked ${marked}.`
          : `${reason}; the task was running there and is marked ${marked}.`;
      await close(task, row.runner_id, [line], outcome);
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

  /** The heartbeat. A runner process that started anew has lost the jobs it was running. */
  async function touch(runner: RunnerRow, startedAtHeader: string | undefined): Promise<void> {
    // Cut to what the column holds before comparing, or a longer value would look like a restart at every call.
    const processStartedAt = startedAtHeader?.slice(0, 40);
    const wasAlive = placement.isAlive(runner);
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
    if (!wasAlive) engine.wake();
  }

  async function buildJob(row: RunnerTaskRow): Promise<RunnerJob | undefined> {
    // Marked before it is read: a task this runner is sent is never handed to another (releaseTask).
    if (row.sent_to_runner === null) await deps.runners.markSent(row.id, row.runner_id, now());
    const task = await engine.findTask(row.id);
    if (task?.runner_id !== row.runner_id || task.status !== 'starting') return undefined;
    try {
      const about = await deps.describeStart(task);
      return {
        id: task.id,
        spec: await deps.specs.build(task, { username: about.username, incomingVersion: about.incomingVersion }),
      };
    } catch (error) {
      // The same task would fail the same way on any runner: close it instead of handing it around.
      const why = `Failed to run task: ${error instanceof Error ? error.message : String(error)}`;
      await withTaskLock(task.id, () => close(task, row.runner_id, [why], 'error'));
      return undefined;
    }
  }

  async function buildState(runner: RunnerRow): Promise<RunnerState> {
    const state: RunnerState = { CurrentJobs: [], new_jobs: [], access_keys: {} };
    for (const row of await deps.runners.listRunnerTasks(runner.id)) {
      if (row.status !== 'starting') {
        state.CurrentJobs.push({
          id: row.id,
          status: row.status,
          force: placement.isForceStopped(row.id),
        });
        continue;
      }
      // A runner deactivated after its tasks were placed is sent none of them: those it was never sent go back to the queue.
      if (runner.active !== 1) {
        const task = await engine.findTask(row.id);
        if (task)
          await withTaskLock(task.id, () =>
            requeueUnsent(task, runner.id, `Runner #${runner.id} (${runner.name}) was deactivated`),
          );
        continue;
      }
      const job = await buildJob(row);
      if (job) state.new_jobs.push(job);
    }
    return state;
  }

  async function markStarted(runner: RunnerRow, task: TaskRow, audience: Audience): Promise<boolean> {
    if (!(await engine.transition(task, ['starting'], 'running', { start: now(), secret: null }, audience)))
      return false;
    const about = await deps.describeStart(task);
    const notes = startNotes(task, about, runner.name);
    await deps.output.write(task, [notes.line], audience);
    await recordStartEvent(deps.events, task, notes.event);
    return true;
  }

  /** Applies one job's report; returns how many of its lines the server holds, or undefined when the runner must drop the job. */
  async function applyProgress(runner: RunnerRow, job: JobProgress): Promise<number | undefined> {
    const task = await engine.findTask(job.ID);
    if (!task || task.runner_id !== runner.id || isTaskFinished(task.status)) return undefined;
    const audience = await deps.audienceOf(task.project_id);
    if (task.status === 'starting' && !(await markStarted(runner, task, audience))) return undefined;

    const records = job.LogRecords.map((r) => ({ time: r.time, output: r.message }));
    const appended = await deps.output.appendReport(task, records, job.LogOffset, audience);
    if (!appended) return undefined;
    if (job.Commit) await engine.recordCommit(task.id, job.Commit);
    if (job.Plan) await deps.savePlan(task.id, job.Plan);
    // A status change comes after the lines that led to it; with lines missing, wait for them.
    if (appended.runnerLogOffset < job.LogOffset + records.length || !job.Status) return appended.runnerLogOffset;

    if (job.Status === 'waiting_confirmation')
      await engine.transition(task, ['running'], 'waiting_confirmation', {}, audience);
    else if (job.Status === 'running') await engine.transition(task, ['confirmed'], 'running', {}, audience);
    else {
      if (job.Hosts) await deps.saveHosts(task.id, job.Hosts);
      if (job.Outputs) await deps.saveOutputs(task.id, job.Outputs);
      if (await close(task, runner.id, [], job.Status)) placement.callWebhook(runner.id, task, 'finish');
      placement.forgetForceStop(task.id);
    }
    return appended.runnerLogOffset;
  }

  return {
    /** The runner's heartbeat and job fetch; waits up to `wait` seconds for news when there is none. */
    async poll(token: string | undefined, processStartedAt: string | undefined, wait = 0): Promise<RunnerState> {
      const runner = await authenticateRunner(deps.runners, token);
      await touch(runner, processStartedAt);
      const since = placement.version(runner.id);
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
      await placement.waitForChange(runner.id, since, waitSeconds * 1000);
      return answer(placement.version(runner.id) === since ? state : await buildState(runner));
    },

    async progress(token: string | undefined, jobs: JobProgress[]): Promise<RunnerProgressResult> {
      const runner = await authenticateRunner(deps.runners, token);
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
      placement.bump(runnerId);
      lastReported.delete(runnerId);
      for (const row of await deps.runners.listRunnerTasks(runnerId))
        await releaseTask(row, `Runner #${runnerId} was deleted`);
    },

    sweep,

    start(): void {
      if (sweepTimer) return;
      placement.open();
      const interval = Math.max(500, Math.floor(offlineMs / 4));
      sweepTimer = setInterval(
        () => void sweep().catch((error: unknown) => deps.logger.error({ err: error }, 'runner sweep failed')),
        interval,
      );
    },

    /** Ends pending long polls (before the HTTP server closes) and the sweep. */
    close(): void {
      placement.close();
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = undefined;
    },
  };
}

export type RunnerJobs = ReturnType<typeof createRunnerJobs>;
