import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Audience, LiveHub } from '../../live/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import { createLocalExecution, type LocalExecutionDeps, type TaskControlAction } from './local-execution.ts';
import { createTaskControl } from './task-control.ts';
import { createTaskDispatcher, type TaskPlacement } from './task-dispatcher.ts';
import type { OpenTaskLog } from './task-log.ts';
import type { TaskOutput } from './task-output.ts';
import type { TaskLogSpool } from './task-log-spool.ts';
import { createTaskRecovery } from './task-recovery.ts';
import type { TaskSpecBuilder } from './task-spec-builder.ts';
import { createTaskStatuses, type TaskStatusesDeps } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';
import type { TaskOutcome } from '@gantry/runner';
import { isTaskFinished, type TaskStatus } from '@gantry/contract';

export interface TaskEngineDeps {
  /** This server process; recorded on the tasks it runs in-process. */
  nodeId: string;
  /** Set when several server processes share the store. */
  control?: { send(taskId: number, action: TaskControlAction): void };
  placement: TaskPlacement;
  config: Config;
  tasks: TasksRepository;
  output: TaskOutput;
  specs: TaskSpecBuilder;
  openLog: OpenTaskLog;
  spool: TaskLogSpool;
  hub: LiveHub;
  events: EventsService;
  clock: Clock;
  logger: FastifyBaseLogger;
  audienceOf(projectId: number): Promise<Audience>;
  describeStart: LocalExecutionDeps['describeStart'];
  saveHosts: LocalExecutionDeps['saveHosts'];
  savePlan: LocalExecutionDeps['savePlan'];
  saveOutputs: LocalExecutionDeps['saveOutputs'];
  onFinished: TaskStatusesDeps['onFinished'];
  onWaitingConfirmation?: TaskStatusesDeps['onWaitingConfirmation'];
}

/**
 * The task engine: the dispatcher starts waiting tasks as the limits allow, local execution runs the
 * ones placed here, task control stops and answers them wherever they run, and every status change of
 * a started task goes through the same guard (task-statuses.ts).
 */
export function createTaskEngine(deps: TaskEngineDeps) {
  const statuses = createTaskStatuses({
    ...deps,
    // The after-task work may queue tasks (autorun of a build's deploys): the queue is read again after it.
    onFinished: async (task) => {
      try {
        await deps.onFinished(task);
      } finally {
        dispatcher.wake();
      }
    },
  });
  const local = createLocalExecution({ ...deps, statuses, onEnded: () => dispatcher.wake() });
  const dispatcher = createTaskDispatcher({
    ...deps,
    maxParallelTasks: deps.config.max_parallel_tasks,
    statuses,
    startLocal: local.start,
  });
  const control = createTaskControl({ ...deps, statuses, local, wake: dispatcher.wake });
  const recovery = createTaskRecovery({ ...deps, statuses, local });

  return {
    wake: dispatcher.wake,
    /** A task as stored now, wherever it runs (runners' reports read it before they change it). */
    findTask: (taskId: number) => deps.tasks.findById(taskId),
    /** The commit a runner checked out for the task. */
    recordCommit: (taskId: number, commit: { hash: string; message: string }) =>
      deps.tasks.update(taskId, { commit_hash: commit.hash, commit_message: commit.message.slice(0, 255) }),
    /** Status changes of tasks that run on runners go through the same guard and live updates. */
    transition: statuses.transition,
    /** Records a final status (by default of a started task) and runs the after-task work once. */
    settle: async (task: TaskRow, outcome: TaskOutcome, from?: readonly TaskStatus[]) => {
      const settled = await statuses.settle(task, outcome, undefined, from);
      dispatcher.wake();
      return settled;
    },
    /**
     * Follows a status change another module stored in its own transaction: tells the clients, runs
     * the after-task work of a final status, and lets the queue move (a task joined it, or freed room).
     */
    announce: async (task: TaskRow, status: TaskStatus, extra: Partial<TaskRow>) => {
      await statuses.announce(task, status, extra);
      if (isTaskFinished(status)) await statuses.finish(task, status);
      dispatcher.wake();
    },
    stop: control.stop,
    stopQueued: control.stopQueued,
    confirm: control.confirm,
    reject: control.reject,
    stopProject: control.stopProject,
    applyControl: control.applyControl,
    followStoredRequests: control.followStoredRequests,
    isRunningHere: local.isRunningHere,
    recover: recovery.recover,
    async shutdown(): Promise<void> {
      dispatcher.close();
      await local.shutdown();
    },
  };
}

export type TaskEngine = ReturnType<typeof createTaskEngine>;
