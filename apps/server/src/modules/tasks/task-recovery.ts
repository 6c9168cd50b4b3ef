import type { TaskStatus } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES } from '@gantry/contract';
import { killMarkedProcesses, listMarkedTaskIds } from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { LocalExecution } from './local-execution.ts';
import type { TaskOutput } from './task-output.ts';
import type { TaskStatuses } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';

export interface TaskRecoveryDeps {
  /** This server process. */
  nodeId: string;
  tasks: TasksRepository;
  output: TaskOutput;
  statuses: TaskStatuses;
  local: Pick<LocalExecution, 'isRunningHere' | 'markOf' | 'markScope'>;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/** Closes the tasks a server process that is gone left started, and ends what they left running here. */
export function createTaskRecovery(deps: TaskRecoveryDeps) {
  let leftoversEnded = false;

  /**
   * Ends the processes an earlier process of this installation left on this machine for tasks it no
   * longer runs: a node killed while its task ran comes back after another node closed that task (or
   * so soon that its former self still counts as alive and the task is closed later), and nothing
   * else would ever stop them. Marks are per data directory, which no two live nodes share.
   */
  async function endLeftoverProcesses(): Promise<void> {
    for (const taskId of await listMarkedTaskIds(deps.local.markScope)) {
      if (deps.local.isRunningHere(taskId)) continue;
      const row = await deps.tasks.findById(taskId);
      const killed = await killMarkedProcesses({ mark: deps.local.markOf(taskId) });
      if (killed === 0 || !row) continue;
      deps.logger.warn(
        { taskId, processes: killed },
        'stopped the processes a closed task left running on this machine',
      );
      await deps.output.write(row, [
        'Gantry came back on the machine that ran this task and stopped its processes, still running.',
      ]);
    }
  }

  return {
    /**
     * Closes tasks a previous process left started: they cannot be running any more. Waiting tasks
     * stay queued and are dispatched again. In a cluster, tasks of the server processes still alive
     * are theirs and stay.
     */
    async recover(options: { aliveNodes?: ReadonlySet<string> } = {}): Promise<number> {
      let closedCount = 0;
      // Every node beat runs this: the started tasks only, never the queue however long it is.
      for (const task of await deps.tasks.listStarted()) {
        // Runners outlive a server restart; the lost-runner sweep judges their tasks.
        if (deps.local.isRunningHere(task.id) || task.runner_id !== null) continue;
        if (task.node_id !== null && options.aliveNodes?.has(task.node_id)) continue;
        // Every live node sweeps: the one that takes the task over closes it, the others leave it.
        if (task.node_id !== null && task.node_id !== deps.nodeId)
          if (!(await deps.tasks.takeOverFromNode(task.id, task.node_id, deps.nodeId))) continue;
        const row = await deps.tasks.findById(task.id);
        if (!row) continue;
        const lines = [
          options.aliveNodes
            ? 'The Gantry server running this task stopped answering; the task can no longer be followed and was closed.'
            : 'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
        ];
        // By mark, not by the recorded pid: the leader may be gone while what it started (setsid, double forks) runs on.
        if ((await killMarkedProcesses({ mark: deps.local.markOf(row.id) })) > 0)
          lines.push('Its processes, still running, were stopped.');
        await deps.output.write(row, lines);
        const status: TaskStatus = task.status === 'stopping' ? 'stopped' : 'error';
        const ended = { end: toTimestamp(deps.clock.now()) };
        if (await deps.statuses.transition(row, ACTIVE_TASK_STATUSES, status, ended)) closedCount += 1;
      }
      if (!leftoversEnded) {
        leftoversEnded = true;
        await endLeftoverProcesses();
      }
      return closedCount;
    },
  };
}
