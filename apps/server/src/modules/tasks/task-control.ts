import type { TaskStatus } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES, STOPPABLE_STARTED_STATUSES, UNSTARTED_TASK_STATUSES } from '@gantry/contract';
import { PLAN_REJECTED_LINE, TaskStopped } from '@gantry/runner';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Audience } from '../../live/live-hub.ts';
import type { LocalExecution, TaskControlAction } from './local-execution.ts';
import type { TaskPlacement } from './task-dispatcher.ts';
import type { TaskOutput } from './task-output.ts';
import { finalLine, type TaskStatuses } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskRow } from './tasks.table.ts';

/** Reaches the other server processes of a cluster (through Redis). */
interface ClusterControl {
  send(taskId: number, action: TaskControlAction): void;
}

export interface TaskControlDeps {
  nodeId: string;
  /** Set when several server processes share the store. */
  control?: ClusterControl;
  placement: TaskPlacement;
  tasks: TasksRepository;
  output: TaskOutput;
  statuses: TaskStatuses;
  local: LocalExecution;
  clock: Clock;
  audienceOf(projectId: number): Promise<Audience>;
  /** A place in the limits may have come free. */
  wake(): void;
}

/** The requests another server process stores as the status of a task running here (see followStoredRequests). */
const STORED_REQUESTS: Partial<Record<TaskStatus, TaskControlAction>> = {
  stopping: 'stop',
  confirmed: 'confirm',
  rejected: 'reject',
};

/**
 * Stop, force stop, confirm and reject, wherever the task runs: in this process, in another server
 * process of the cluster (through Redis and the stored status), or on a remote runner (through its poll).
 */
export function createTaskControl(deps: TaskControlDeps) {
  const { statuses, local } = deps;
  const now = () => toTimestamp(deps.clock.now());

  /** A task another server process of the cluster runs in-process: only that one can act on it. */
  function runsOnOtherNode(task: TaskRow): boolean {
    return (
      deps.control !== undefined &&
      task.runner_id === null &&
      task.node_id !== null &&
      task.node_id !== deps.nodeId &&
      !local.isRunningHere(task.id)
    );
  }

  async function answerOnOtherNode(task: TaskRow, answer: 'confirmed' | 'rejected'): Promise<boolean> {
    if (!(await statuses.transition(task, ['waiting_confirmation'], answer))) return false;
    deps.control?.send(task.id, answer === 'confirmed' ? 'confirm' : 'reject');
    return true;
  }

  /**
   * A confirmation reaches the runner through the task's status at its next poll. A runner's task
   * waiting for confirmation has no process left, so a rejection closes it here; the runner, no
   * longer finding the job in its list, drops it.
   */
  async function answerRemotely(task: TaskRow, answer: 'confirmed' | 'rejected'): Promise<boolean> {
    if (task.runner_id === null || task.status !== 'waiting_confirmation') return false;
    if (answer === 'confirmed') {
      if (!(await statuses.transition(task, ['waiting_confirmation'], 'confirmed'))) return false;
    } else {
      const audience = await deps.audienceOf(task.project_id);
      await deps.output.write(task, [PLAN_REJECTED_LINE, finalLine('rejected')], audience);
      if (!(await statuses.settle(task, 'rejected', audience, ['waiting_confirmation']))) return false;
    }
    deps.placement.notify(task.runner_id, task.id, 'changed');
    return true;
  }

  /** Stops a task: a queued one at once, a started one by killing its processes (at once when forced). */
  async function stop(task: TaskRow, force: boolean): Promise<void> {
    const here = local.isRunningHere(task.id);
    const unstarted = UNSTARTED_TASK_STATUSES.includes(task.status);
    if (runsOnOtherNode(task) && !unstarted) {
      // If that process is gone, the node sweep closes the task.
      if ((await statuses.transition(task, STOPPABLE_STARTED_STATUSES, 'stopping')) || force)
        deps.control?.send(task.id, force ? 'force_stop' : 'stop');
      return;
    }
    if (!here && task.runner_id !== null && task.status !== 'starting') {
      // The runner kills the processes and reports the final status; if it is gone, the sweep closes the task.
      const change = force ? 'force_stop' : 'changed';
      if ((await statuses.transition(task, STOPPABLE_STARTED_STATUSES, 'stopping')) || force)
        deps.placement.notify(task.runner_id, task.id, change);
      return;
    }
    if (!here) {
      await statuses.transition(task, [...UNSTARTED_TASK_STATUSES, ...ACTIVE_TASK_STATUSES], 'stopped', { end: now() });
      if (task.runner_id !== null) deps.placement.notify(task.runner_id, task.id, 'changed');
      deps.wake();
      return;
    }
    await statuses.transition(task, STOPPABLE_STARTED_STATUSES, 'stopping');
    local.stop(task.id, force);
  }

  return {
    stop,

    /**
     * Stops queued tasks only: each moves from waiting to stopped with the same live update as `stop`,
     * and one the dispatcher started meanwhile is left alone. Returns how many were stopped.
     */
    async stopQueued(queued: TaskRow[]): Promise<number> {
      let stopped = 0;
      // A flood of hundreds queued tasks belongs to one or a few projects: one membership read each.
      const audiences = new Map<number, Audience>();
      for (const task of queued) {
        let audience = audiences.get(task.project_id);
        if (!audience) audiences.set(task.project_id, (audience = await deps.audienceOf(task.project_id)));
        if (await statuses.transition(task, ['waiting'], 'stopped', { end: now() }, audience)) stopped++;
      }
      if (stopped > 0) deps.wake();
      return stopped;
    },

    /** Force-stops every unfinished task of a project (before the project is deleted). */
    async stopProject(projectId: number): Promise<void> {
      for (const active of await deps.tasks.listActive()) {
        const row = active.project_id === projectId ? await deps.tasks.findById(active.id) : undefined;
        if (row) await stop(row, true);
      }
    },

    async confirm(task: TaskRow): Promise<boolean> {
      if (task.runner_id !== null) return answerRemotely(task, 'confirmed');
      if (runsOnOtherNode(task)) return answerOnOtherNode(task, 'confirmed');
      const confirmation = local.takeConfirmation(task.id);
      if (!confirmation) return false;
      if (!(await statuses.transition(task, ['waiting_confirmation'], 'confirmed'))) {
        // A stop moved the task on meanwhile, or a rejection through another server process (then it ends as stopped).
        confirmation.reject(new TaskStopped());
        return false;
      }
      confirmation.resolve(true);
      return true;
    },

    /**
     * Rejects a plan: nothing is applied and the task ends as 'rejected'. Here the status is written
     * once, after the log's last lines, like any final status.
     */
    async reject(task: TaskRow): Promise<boolean> {
      if (task.runner_id !== null) return answerRemotely(task, 'rejected');
      if (runsOnOtherNode(task)) return answerOnOtherNode(task, 'rejected');
      const confirmation = local.takeConfirmation(task.id);
      if (!confirmation) return false;
      confirmation.resolve(false);
      return true;
    },

    /** Carries out what another server process asked of a task running here; the status is already set. */
    applyControl: local.applyControl,

    /**
     * Carries out the requests other nodes stored for tasks running here (stop, confirm, reject): the
     * message through Redis is only the fast path, and is lost while Redis is away.
     */
    async followStoredRequests(): Promise<void> {
      const ids = local.runningIds();
      if (ids.length === 0) return;
      const requested = Object.keys(STORED_REQUESTS) as TaskStatus[];
      for (const { id, status } of await deps.tasks.listWithStatus(ids, requested)) {
        const action = STORED_REQUESTS[status];
        if (action) local.applyControl(id, action);
      }
    },
  };
}
