import type { TaskStatus } from '@gantry/contract';
import { ACTIVE_TASK_STATUSES } from '@gantry/contract';
import { killMarkedProcesses, listMarkedTaskIds } from '@gantry/runner';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { LogLine } from '../../live/live-hub.ts';
import type { LocalExecution } from './local-execution.ts';
import type { TaskLogSpool } from './task-log-spool.ts';
import type { TaskOutput } from './task-output.ts';
import type { TaskStatuses } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';

export interface TaskRecoveryDeps {
  /** This server process. */
  nodeId: string;
  tasks: TasksRepository;
  output: TaskOutput;
  spool: TaskLogSpool;
  statuses: TaskStatuses;
  local: Pick<LocalExecution, 'isRunningHere' | 'markOf' | 'markScope'>;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/** Said before spooled lines stored after the task's log went on without them (another node closed it). */
export const LATE_LINES_NOTE =
  'The lines below were read from this task by its Gantry server before that server stopped, and stored when it started again.';

/** Closes the tasks a server process that is gone left started, and ends what they left running here. */
export function createTaskRecovery(deps: TaskRecoveryDeps) {
  let leftoversEnded = false;
  let spoolStored = false;

  /**
   * Stores the spooled lines of a task the store lacks: those after the last one it has. Where nothing was
   * written after them they take their own numbers; otherwise (the task was closed meanwhile) they follow,
   * after a note saying where they come from.
   */
  async function storeMissingLines(task: { id: number; project_id: number; output_lines: number }, lines: LogLine[]) {
    const first = lines[0];
    if (!first) return;
    const stored = new Map((await deps.output.stored(task.id, first.seq, lines.length)).map((l) => [l.seq, l.output]));
    const missingFrom = lines.findIndex((line) => stored.get(line.seq) !== line.output);
    const missing = missingFrom < 0 ? [] : lines.slice(missingFrom);
    if (missing.length === 0) return;
    const inPlace = missing[0]?.seq === task.output_lines;
    const note = { time: toTimestamp(deps.clock.now()), output: LATE_LINES_NOTE };
    const records = missing.map(({ time, output }) => ({ time, output }));
    await deps.output.appendReport(task, inPlace ? records : [note, ...records], null);
    deps.logger.warn({ taskId: task.id, lines: missing.length }, 'stored the log lines a killed process had read');
  }

  /** The lines an earlier process of this data directory read from its tasks and was killed before storing. */
  async function storeSpooledLines(): Promise<void> {
    for (const taskId of deps.spool.listLeft()) {
      try {
        const task = await deps.tasks.findById(taskId);
        if (task) await storeMissingLines(task, deps.spool.read(taskId));
        deps.spool.discard(taskId);
      } catch (error) {
        // Left in place for the next start: the store may be back by then.
        deps.logger.error({ err: error, taskId }, 'could not store the log lines a killed process had read');
      }
    }
  }

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
      // First, so that a task still open gets its lines in place, before the note that closes it.
      if (!spoolStored) {
        spoolStored = true;
        await storeSpooledLines();
      }
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
