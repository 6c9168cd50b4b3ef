import type { QueuedTaskRow, StartedTaskRow } from '../tasks/tasks.repository.ts';
import type { RunnerRow } from './runners.table.ts';

export interface PlacementInput {
  runners: readonly RunnerRow[];
  active: readonly StartedTaskRow[];
  useRemoteRunner: boolean;
  /** Whether the runner has called the server recently enough to be handed work. */
  isAlive(runner: RunnerRow): boolean;
  /** Assignment order so far, so equally loaded runners take turns. */
  lastAssigned: Map<number, number>;
}

/**
 * Decides where each queued task of one dispatch round runs. A project with active runners of its own
 * uses them (then the global ones if remote running is on); with remote running on, every task goes to
 * a runner; otherwise tasks run in the server. Among runners that are alive and below their limit, the
 * least loaded one wins, so tasks spread instead of piling onto one; null keeps the task queued.
 */
export function createPlacer(input: PlacementInput): (task: QueuedTaskRow) => number | 'local' | null {
  const load = new Map<number, number>();
  for (const task of input.active)
    if (task.runner_id !== null) load.set(task.runner_id, (load.get(task.runner_id) ?? 0) + 1);
  let turn = Math.max(0, ...input.lastAssigned.values());

  function pick(candidates: readonly RunnerRow[]): RunnerRow | undefined {
    let best: RunnerRow | undefined;
    for (const runner of candidates) {
      const current = load.get(runner.id) ?? 0;
      if (!input.isAlive(runner) || (runner.max_parallel_tasks > 0 && current >= runner.max_parallel_tasks)) continue;
      const bestLoad = best ? (load.get(best.id) ?? 0) : Infinity;
      const earlier =
        best !== undefined &&
        current === bestLoad &&
        (input.lastAssigned.get(runner.id) ?? 0) < (input.lastAssigned.get(best.id) ?? 0);
      if (current < bestLoad || earlier) best = runner;
    }
    return best;
  }

  return (task) => {
    const own = input.runners.filter((r) => r.project_id === task.project_id);
    if (own.length === 0 && !input.useRemoteRunner) return 'local';
    const globals = input.useRemoteRunner ? input.runners.filter((r) => r.project_id === null) : [];
    const chosen = pick(own) ?? pick(globals);
    if (!chosen) return null;
    load.set(chosen.id, (load.get(chosen.id) ?? 0) + 1);
    input.lastAssigned.set(chosen.id, ++turn);
    return chosen.id;
  };
}
