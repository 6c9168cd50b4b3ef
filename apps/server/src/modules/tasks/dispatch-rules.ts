import type { QueuedTaskRow, StartedTaskCount } from './tasks.table.ts';

/** What is started at one moment of a dispatch round, counted the way the limits count it. */
export interface StartedLoad {
  total: number;
  perProject: Map<number, number>;
  perTemplate: Map<number, number>;
}

/**
 * Why a queued task may not start now: the installation is full (nothing else may start this round),
 * its project is at its limit, or its template runs one task at a time and one is started.
 */
export type StartVerdict = 'start' | 'installation_full' | 'project_full' | 'template_busy';

type Counted = Pick<StartedTaskCount, 'project_id' | 'template_id'>;

/** Adds started tasks of one project and template to the load (one, unless told how many). */
export function countStarted(load: StartedLoad, task: Counted, count = 1): void {
  load.total += count;
  load.perProject.set(task.project_id, (load.perProject.get(task.project_id) ?? 0) + count);
  load.perTemplate.set(task.template_id, (load.perTemplate.get(task.template_id) ?? 0) + count);
}

export function loadOf(started: readonly (Counted & Pick<StartedTaskCount, 'count'>)[]): StartedLoad {
  const load: StartedLoad = { total: 0, perProject: new Map(), perTemplate: new Map() };
  for (const group of started) countStarted(load, group, group.count);
  return load;
}

/** The installation's limit of started tasks; 0 or less means none. */
export function installationLimit(maxParallelTasks: number): number {
  return maxParallelTasks > 0 ? maxParallelTasks : Infinity;
}

/**
 * Whether a queued task may start under the limits, given what is started: the installation's limit
 * (`limit`, see installationLimit), its project's `max_parallel_tasks` (0: none) and its template's
 * `allow_parallel_tasks` (anything but 1: one task of the template at a time). Where it runs, on this
 * server or on a runner with free capacity, is the placement's decision (runners/runner-placement.ts).
 */
export function canStart(
  load: StartedLoad,
  task: Pick<QueuedTaskRow, 'project_id' | 'template_id' | 'max_parallel_tasks' | 'allow_parallel_tasks'>,
  limit: number,
): StartVerdict {
  if (load.total >= limit) return 'installation_full';
  if (task.max_parallel_tasks > 0 && (load.perProject.get(task.project_id) ?? 0) >= task.max_parallel_tasks)
    return 'project_full';
  if (task.allow_parallel_tasks !== 1 && (load.perTemplate.get(task.template_id) ?? 0) > 0) return 'template_busy';
  return 'start';
}
