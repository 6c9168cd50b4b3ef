import { z } from 'zod';

export const TaskStatus = z.enum([
  'waiting',
  'waiting_approval',
  'starting',
  'waiting_confirmation',
  'confirmed',
  'rejected',
  'running',
  'stopping',
  'stopped',
  'success',
  'error',
]);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Where a finished task counts in the stats chart: a rejected plan was ended by a user, like a stop, and is no failure. */
export type TaskStatOutcome = 'success' | 'failed' | 'stopped';

/** What a status means to the server and the UI. */
export interface TaskStatusRule {
  /** Catalogue key of the status's label. */
  labelKey: `taskStatus.${TaskStatus}`;
  /** Over: the status never changes again, the task can be re-run and it counts in the stats. */
  final: boolean;
  /** Started and not over: the task holds a slot (of the server, its project, its template or a runner). */
  holdsSlot: boolean;
  /** Stop offered: a plain stop, a forced stop once the task is already stopping, or none when it is over. */
  stop: 'stop' | 'force' | null;
  /** Waiting for a user's confirm or reject of its plan. */
  awaitsAnswer: boolean;
  /** Where it counts in the stats chart, once final. */
  statOutcome: TaskStatOutcome | null;
  /** Entering the status sends the project's alerts. */
  alerts: boolean;
}

function rule(status: TaskStatus, rest: Omit<TaskStatusRule, 'labelKey'>): TaskStatusRule {
  return { labelKey: `taskStatus.${status}`, ...rest };
}

const queued = {
  final: false,
  holdsSlot: false,
  stop: 'stop',
  awaitsAnswer: false,
  statOutcome: null,
  alerts: false,
} as const;
const started = { ...queued, holdsSlot: true } as const;
const over = { final: true, holdsSlot: false, stop: null, awaitsAnswer: false, alerts: false } as const;

/** The one table of task statuses (seed 000 section 4); every list of statuses is read from it. */
export const TASK_STATUS_RULES: Readonly<Record<TaskStatus, TaskStatusRule>> = {
  waiting: rule('waiting', queued),
  // Held back until its template's approvers approve (docs/workflows.md): not in the queue, holds no slot.
  waiting_approval: rule('waiting_approval', queued),
  starting: rule('starting', started),
  running: rule('running', started),
  waiting_confirmation: rule('waiting_confirmation', { ...started, awaitsAnswer: true, alerts: true }),
  confirmed: rule('confirmed', started),
  stopping: rule('stopping', { ...started, stop: 'force' }),
  // Final: nothing runs after a rejected plan, and it is no failure.
  rejected: rule('rejected', { ...over, statOutcome: 'stopped' }),
  stopped: rule('stopped', { ...over, statOutcome: 'stopped' }),
  success: rule('success', { ...over, statOutcome: 'success', alerts: true }),
  error: rule('error', { ...over, statOutcome: 'failed', alerts: true }),
};

const statusesWhere = (test: (rule: TaskStatusRule) => boolean): readonly TaskStatus[] =>
  TaskStatus.options.filter((status) => test(TASK_STATUS_RULES[status]));

export const FINISHED_TASK_STATUSES = statusesWhere((r) => r.final);

/** Statuses in which a task holds a slot: started and not yet finished. */
export const ACTIVE_TASK_STATUSES = statusesWhere((r) => r.holdsSlot);

/** Statuses from which a started task moves to 'stopping' when asked to stop. */
export const STOPPABLE_STARTED_STATUSES = statusesWhere((r) => r.holdsSlot && r.stop === 'stop');

/** Statuses of a task that has not started and holds no slot: in the queue, or held back before it. */
export const UNSTARTED_TASK_STATUSES = statusesWhere((r) => !r.final && !r.holdsSlot);

export const isTaskFinished = (status: TaskStatus): boolean => TASK_STATUS_RULES[status].final;

export const isTaskActive = (status: TaskStatus): boolean => TASK_STATUS_RULES[status].holdsSlot;
