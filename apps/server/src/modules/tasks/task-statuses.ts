import type { TaskStatus, TaskUpdateMessage } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES, isTaskFinished } from '@gantry/contract';
import type { TaskOutcome } from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Audience, LiveHub } from '../../live/live-hub.ts';
import type { EventsService } from '../events/events.service.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

const FINAL_LINES: Record<TaskOutcome, string> = {
  success: 'Task finished successfully.',
  error: 'Task failed.',
  stopped: 'Task stopped.',
  rejected: 'Task rejected.',
};

/** The engine's closing line of a task, the same wherever it ran. */
export function finalLine(outcome: TaskOutcome): string {
  return FINAL_LINES[outcome];
}

export interface TaskStatusesDeps {
  tasks: TasksRepository;
  hub: LiveHub;
  events: EventsService;
  clock: Clock;
  logger: FastifyBaseLogger;
  audienceOf(projectId: number): Promise<Audience>;
  /** Runs after a task reached its final status (autorun of deploys, alerts); its failures are only logged. */
  onFinished(task: TaskRow): Promise<void>;
  /** Told each time a task (local or on a runner) starts waiting for confirmation (alerts); must not block. */
  onWaitingConfirmation?(taskId: number): void;
}

type TaskRef = Pick<TaskRow, 'id' | 'template_id' | 'project_id' | 'start' | 'end' | 'version'>;

/** Every status change of a started task, wherever it runs: one guard, one live update, one after-task hook. */
export function createTaskStatuses(deps: TaskStatusesDeps) {
  /**
   * Moves a task to a new status if it is still in one of `from`, and tells the clients. The caller
   * passes the audience when it already knows it (a running task), so hot paths skip the lookup.
   */
  async function transition(
    task: TaskRef,
    from: readonly TaskStatus[],
    status: TaskStatus,
    extra: Partial<TaskRow> = {},
    audience?: Audience,
  ): Promise<boolean> {
    const changed = await deps.tasks.transition(task.id, from, { status, ...extra });
    if (!changed) return false;
    await announce(task, status, extra, audience);
    return true;
  }

  /** Tells the clients of a status change already stored (by `transition`, or in another module's transaction). */
  async function announce(
    task: TaskRef,
    status: TaskStatus,
    extra: Partial<TaskRow> = {},
    audience?: Audience,
  ): Promise<void> {
    Object.assign(task, extra);
    const message: TaskUpdateMessage = {
      type: 'update',
      task_id: task.id,
      template_id: task.template_id,
      project_id: task.project_id,
      status,
      start: task.start,
      end: task.end,
      version: task.version,
    };
    deps.hub.publishUpdate(audience ?? (await deps.audienceOf(task.project_id)), message, isTaskFinished(status));
    if (status === 'waiting_confirmation') deps.onWaitingConfirmation?.(task.id);
  }

  /** The after-task work of a task whose final status is stored: its event and the after-task hook. */
  async function finish(task: TaskRow, status: TaskStatus): Promise<void> {
    await deps.events.record({
      userId: task.user_id,
      projectId: task.project_id,
      objectType: 'task',
      objectId: task.id,
      description: `Task ${task.id} finished: ${status}`,
    });
    await deps
      .onFinished({ ...task, status })
      .catch((error: unknown) => deps.logger.error({ err: error, taskId: task.id }, 'after-task hook failed'));
  }

  /** Records a started task's final status (wherever it ran) and runs the after-task work once. */
  async function settle(
    task: TaskRow,
    outcome: TaskOutcome,
    audience?: Audience,
    from: readonly TaskStatus[] = ACTIVE_TASK_STATUSES,
  ): Promise<boolean> {
    const status: TaskStatus = outcome;
    const ended = { end: toTimestamp(deps.clock.now()), pid: null };
    if (!(await transition(task, from, status, ended, audience))) return false;
    await finish(task, status);
    return true;
  }

  return { transition, settle, announce, finish };
}

export type TaskStatuses = ReturnType<typeof createTaskStatuses>;
