import type { TaskStatus } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES } from '@gantry/contract';
import {
  TASK_MARK_VARIABLE,
  TaskStopped,
  createTaskMark,
  createTaskMarkScope,
  runTask,
  type TaskOutcome,
} from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Audience } from '../../live/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import type { TaskHostsService } from './task-hosts.ts';
import type { TaskPlans } from './task-plan.ts';
import type { TaskOutputsService } from './task-outputs.ts';
import { toLogLine } from './task-output.ts';
import type { OpenTaskLog } from './task-log.ts';
import type { TaskSpecBuilder } from './task-spec-builder.ts';
import { recordStartEvent, startNotes, type DescribeStart } from './task-start.ts';
import { finalLine, type TaskStatuses } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

/** What a server process may ask of the one that runs a task in-process. */
export type TaskControlAction = 'stop' | 'force_stop' | 'confirm' | 'reject';

export interface LocalExecutionDeps {
  config: Config;
  tasks: TasksRepository;
  specs: TaskSpecBuilder;
  openLog: OpenTaskLog;
  statuses: TaskStatuses;
  events: EventsService;
  clock: Clock;
  logger: FastifyBaseLogger;
  describeStart: DescribeStart;
  saveHosts: TaskHostsService['save'];
  savePlan: TaskPlans['save'];
  saveOutputs: TaskOutputsService['save'];
  /** A task of this process ended: its place may go to a queued one. */
  onEnded(): void;
}

interface RunningTask {
  controller: AbortController;
  force: boolean;
  confirmation?: Confirmation;
  done: Promise<void>;
}

interface Confirmation {
  resolve(confirmed: boolean): void;
  reject(error: Error): void;
}

/** How long tasks may take to stop gracefully when the server itself stops. */
const SHUTDOWN_GRACE_MS = 2500;

/**
 * What a task running in this process may end from: besides the started statuses, 'rejected' without
 * an end, the request another server process stored. Whatever the outcome (a confirmation here may
 * lose the race against that rejection and end the task as stopped), the task gets its end.
 */
const ENDABLE_HERE: readonly TaskStatus[] = [...ACTIVE_TASK_STATUSES, 'rejected'];

/** Runs claimed tasks in this process through the runner package, and holds their processes' handles. */
export function createLocalExecution(deps: LocalExecutionDeps) {
  const running = new Map<number, RunningTask>();
  // Every process of a task carries this installation's mark of it, so a stop, and the recovery after a crash, find them all.
  const markScope = createTaskMarkScope('server', deps.config.data_dir);
  const markOf = (taskId: number) => createTaskMark(markScope, taskId);

  /** Work the runner's callbacks start without waiting for it; a failure is logged, never left unhandled. */
  function background(work: Promise<unknown>, taskId: number): void {
    work.catch((error: unknown) => deps.logger.error({ err: error, taskId }, 'task bookkeeping failed'));
  }

  /** Runs a task the dispatcher claimed; `task` is its row as claimed, kept up to date by the status changes. */
  async function execute(task: TaskRow, audience: Audience, templateName: string, entry: RunningTask): Promise<void> {
    const log = deps.openLog(task, task.output_lines, audience);
    let outcome: TaskOutcome = 'error';
    try {
      const about = await deps.describeStart(task, templateName);
      const notes = startNotes(task, about);
      log.write(notes.line);
      await recordStartEvent(deps.events, task, notes.event);
      const started = { start: toTimestamp(deps.clock.now()) };
      if (!(await deps.statuses.transition(task, ['starting'], 'running', started, audience))) {
        outcome = 'stopped';
        return;
      }
      const spec = await deps.specs.build(task, { username: about.username, incomingVersion: about.incomingVersion });
      if (task.secret) await deps.tasks.update(task.id, { secret: null });
      outcome = await runTask(spec, {
        workRoot: deps.config.data_dir,
        baseEnv: { ...deps.config.task_base_env, [TASK_MARK_VARIABLE]: markOf(task.id) },
        signal: entry.controller.signal,
        forceKill: () => entry.force,
        killGraceMs: deps.config.task_kill_grace_seconds * 1000,
        onLine: (line) => log.write(line),
        onHosts: (report) => deps.saveHosts(task.id, report),
        onPlan: (plan) => deps.savePlan(task.id, plan),
        onOutputs: (outputs) => deps.saveOutputs(task.id, outputs),
        onProcessStart: (pid) => background(deps.tasks.update(task.id, { pid }), task.id),
        onCommit: (hash, message) =>
          background(deps.tasks.update(task.id, { commit_hash: hash, commit_message: message }), task.id),
        onStatus: (status) =>
          background(
            status === 'waiting_confirmation'
              ? deps.statuses.transition(task, ['running'], 'waiting_confirmation', {}, audience)
              : deps.statuses.transition(task, ['confirmed'], 'running', {}, audience),
            task.id,
          ),
        waitForConfirmation: () =>
          new Promise<boolean>((resolve, reject) => {
            if (entry.controller.signal.aborted) reject(new TaskStopped());
            entry.confirmation = { resolve, reject };
          }),
      });
    } catch (error) {
      log.write(toLogLine(`Failed to run task: ${error instanceof Error ? error.message : String(error)}`));
      outcome = 'error';
    } finally {
      log.write(finalLine(outcome));
      await log.close();
      await deps.statuses.settle(task, outcome, audience, ENDABLE_HERE);
    }
  }

  /** Stops a task's processes (at once when forced) and ends its wait for a confirmation. */
  function abort(entry: RunningTask, force: boolean): void {
    entry.force ||= force;
    entry.controller.abort();
    entry.confirmation?.reject(new TaskStopped());
  }

  /**
   * Takes the pending confirmation of a task running here, at most once, so that of two answers
   * racing each other only the first counts.
   */
  function takeConfirmation(taskId: number): Confirmation | undefined {
    const entry = running.get(taskId);
    const confirmation = entry?.confirmation;
    if (entry) entry.confirmation = undefined;
    return confirmation;
  }

  return {
    markOf,
    markScope,

    start(task: TaskRow, audience: Audience, templateName: string): void {
      const entry: RunningTask = { controller: new AbortController(), force: false, done: Promise.resolve() };
      running.set(task.id, entry);
      entry.done = execute(task, audience, templateName, entry)
        .catch((error: unknown) => deps.logger.error({ err: error, taskId: task.id }, 'task engine failure'))
        .finally(() => {
          running.delete(task.id);
          deps.onEnded();
        });
    },

    isRunningHere(taskId: number): boolean {
      return running.has(taskId);
    },

    runningIds(): number[] {
      return [...running.keys()];
    },

    /** Stops a task running here; false when it does not run here. */
    stop(taskId: number, force: boolean): boolean {
      const entry = running.get(taskId);
      if (entry) abort(entry, force);
      return entry !== undefined;
    },

    takeConfirmation,

    /** Carries out what another server process asked of a task running here; the status is already set. */
    applyControl(taskId: number, action: TaskControlAction): void {
      const entry = running.get(taskId);
      if (!entry) return;
      if (action === 'confirm' || action === 'reject') takeConfirmation(taskId)?.resolve(action === 'confirm');
      else abort(entry, action === 'force_stop');
    },

    /**
     * Stops every task of this process and waits until each has its final status. Tasks get a short
     * graceful stop, then are killed: a service manager gives the whole server a few seconds.
     */
    async shutdown(): Promise<void> {
      for (const entry of running.values()) abort(entry, false);
      const forceLater = setTimeout(
        () => {
          for (const entry of running.values()) entry.force = true;
        },
        Math.min(SHUTDOWN_GRACE_MS, deps.config.task_kill_grace_seconds * 1000),
      );
      await Promise.all([...running.values()].map((e) => e.done));
      clearTimeout(forceLater);
    },
  };
}

export type LocalExecution = ReturnType<typeof createLocalExecution>;
