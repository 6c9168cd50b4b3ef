import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { TaskPlacement } from '../tasks/task-dispatcher.ts';
import type { QueuedTaskRow, StartedTaskCount, TaskRow } from '../tasks/tasks.table.ts';
import type { RunnersRepository } from './runners.repository.ts';
import type { RunnerRow } from './runners.table.ts';

export interface PlacementInput {
  runners: readonly RunnerRow[];
  active: readonly Pick<StartedTaskCount, 'runner_id' | 'count'>[];
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
  for (const group of input.active)
    if (group.runner_id !== null) load.set(group.runner_id, (load.get(group.runner_id) ?? 0) + group.count);
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

export type RunnerChange = Parameters<TaskPlacement['notify']>[2];

export interface RunnerPlacementDeps {
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  runners: RunnersRepository;
  findTask(taskId: number): Promise<Pick<TaskRow, 'id' | 'project_id' | 'template_id'> | undefined>;
  /** Tells the other server processes of a cluster, whose long polls may hold the runner. */
  broadcast?(runnerId: number, taskId: number, change: RunnerChange): void;
}

/**
 * The engine's placement on runners, and what each runner must hear about its work: a version per
 * runner that long polls wait on, the force stops asked, and the webhook calls at a task's start and end.
 */
export function createRunnerPlacement(deps: RunnerPlacementDeps) {
  const offlineMs = deps.config.runner_offline_seconds * 1000;
  const lastAssigned = new Map<number, number>();
  const forceStops = new Set<number>();
  /** Bumped on every change a runner must hear about; long polls wait for it to move. */
  const versions = new Map<number, number>();
  const waiters = new Map<number, Set<() => void>>();
  let closing = false;

  const isAlive = (runner: Pick<RunnerRow, 'touched'>) =>
    runner.touched !== null && deps.clock.now().getTime() - Date.parse(runner.touched) <= offlineMs;

  function bump(runnerId: number): void {
    versions.set(runnerId, (versions.get(runnerId) ?? 0) + 1);
    const waiting = waiters.get(runnerId);
    waiters.delete(runnerId);
    for (const resolve of waiting ?? []) resolve();
  }

  function callWebhook(
    runnerId: number,
    task: Pick<TaskRow, 'id' | 'project_id' | 'template_id'>,
    action: 'start' | 'finish',
  ): void {
    void (async () => {
      const runner = await deps.runners.findById(runnerId);
      if (!runner?.webhook) return;
      const body = {
        action,
        project_id: task.project_id,
        task_id: task.id,
        template_id: task.template_id,
        runner_id: runnerId,
      };
      const response = await fetch(runner.webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok)
        deps.logger.warn(
          { runnerId, taskId: task.id, status: response.status },
          'runner webhook answered with an error',
        );
    })().catch((error: unknown) =>
      deps.logger.warn({ err: error, runnerId, taskId: task.id }, 'runner webhook failed'),
    );
  }

  const placement: TaskPlacement = {
    async plan(readActive) {
      const runners = await deps.runners.listActive();
      return createPlacer({
        runners,
        // Without runners every task runs here: their load is not needed.
        active: runners.length > 0 ? await readActive() : [],
        useRemoteRunner: deps.config.use_remote_runner,
        isAlive,
        lastAssigned,
      });
    },
    notify(runnerId, taskId, change) {
      if (change === 'force_stop') forceStops.add(taskId);
      bump(runnerId);
      deps.broadcast?.(runnerId, taskId, change);
      if (change === 'assigned') {
        void deps.findTask(taskId).then((task) => task && callWebhook(runnerId, task, 'start'));
      }
    },
  };

  return {
    placement,
    isAlive,
    callWebhook,
    bump,

    /** Another server process changed a runner's work: answer its long poll here if it waits on this one. */
    hear(runnerId: number, taskId: number, change: RunnerChange): void {
      if (change === 'force_stop') forceStops.add(taskId);
      bump(runnerId);
    },

    version(runnerId: number): number {
      return versions.get(runnerId) ?? 0;
    },

    isForceStopped(taskId: number): boolean {
      return forceStops.has(taskId);
    },

    forgetForceStop(taskId: number): void {
      forceStops.delete(taskId);
    },

    /** Waits until the runner's version moves from `since`, at most `ms`. */
    waitForChange(runnerId: number, since: number, ms: number): Promise<void> {
      if ((versions.get(runnerId) ?? 0) !== since || closing || ms <= 0) return Promise.resolve();
      return new Promise((resolve) => {
        const set = waiters.get(runnerId) ?? new Set();
        waiters.set(runnerId, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        set.add(done);
      });
    },

    /** Long polls wait for news again (the server started anew after a close). */
    open(): void {
      closing = false;
    },
    /** Ends pending long polls, and those asked from now on wait no more. */
    close(): void {
      closing = true;
      for (const runnerId of [...waiters.keys()]) bump(runnerId);
    },
  };
}

export type RunnerPlacement = ReturnType<typeof createRunnerPlacement>;
