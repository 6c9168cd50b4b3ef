import type { FastifyBaseLogger } from 'fastify';
import type { Audience } from '../../live/live-hub.ts';
import { canStart, countStarted, installationLimit, loadOf, type StartedLoad } from './dispatch-rules.ts';
import type { TaskStatuses } from './task-statuses.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { QueuedTaskRow, StartedTaskCount, TaskRow } from './tasks.table.ts';

/**
 * Where tasks run: in this process or on a remote runner. `plan` is asked once per dispatch round and
 * returns the placement of each queued task: 'local', a runner id, or null to keep it queued.
 */
export interface TaskPlacement {
  /** `readActive` gives the started tasks' counts, read once a round and only if asked for. */
  plan(
    readActive: () => Promise<readonly StartedTaskCount[]>,
  ): Promise<(task: QueuedTaskRow) => number | 'local' | null>;
  /** A task was handed to a runner, or a runner's task changed status (stop, confirm): tell that runner. */
  notify(runnerId: number, taskId: number, change: 'assigned' | 'changed' | 'force_stop'): void;
}

export interface TaskDispatcherDeps {
  /** This server process; recorded on the tasks it runs in-process. */
  nodeId: string;
  /** The installation's limit of started tasks (config `max_parallel_tasks`). */
  maxParallelTasks: number;
  tasks: TasksRepository;
  placement: TaskPlacement;
  statuses: TaskStatuses;
  logger: FastifyBaseLogger;
  audienceOf(projectId: number): Promise<Audience>;
  /** Runs a task this process claimed; `templateName` was read with the queue. */
  startLocal(task: TaskRow, audience: Audience, templateName: string): void;
}

/** Queue rows read per page in a dispatch round: about twice the free slots (tasks held back by their limits are skipped). */
const WAITING_PAGE_MIN = 16;
const WAITING_PAGE_MAX = 200;

/** Starts waiting tasks as soon as the limits allow, woken by events, never by a polling tick. */
export function createTaskDispatcher(deps: TaskDispatcherDeps) {
  let dispatching = false;
  let dispatchAgain = false;
  let closed = false;

  /** Whether a queued task's start depends on what is started: a limit of its project or its template. */
  const isLimited = (task: QueuedTaskRow) => task.max_parallel_tasks > 0 || task.allow_parallel_tasks !== 1;

  /**
   * One dispatch round: walks the queue in order, a page at a time and only while there is room, claiming
   * each task that the limits allow (the claim is a conditional update, so a task starts once even when
   * several rounds or servers race for it). The started tasks are counted in the store (by project,
   * template and runner) once a round, and only when a limit or a runner needs them: with none, a round
   * costs no count however many tasks run, as it would grow with them.
   */
  async function dispatch(): Promise<void> {
    const limit = installationLimit(deps.maxParallelTasks);
    let counted: { active: readonly StartedTaskCount[]; load: StartedLoad } | undefined;
    // Read after this round's earlier claims were stored, so they are in the count; later ones are added to it.
    const count = async () => {
      if (!counted) {
        const active = await deps.tasks.countStarted();
        counted = { active, load: loadOf(active) };
      }
      return counted;
    };
    // Most wakes of a busy queue come while it is full: then the queue itself need not be read.
    if (limit !== Infinity && (await count()).load.total >= limit) return;
    let place: ((task: QueuedTaskRow) => number | 'local' | null) | undefined;
    // Tasks of one project started in the same round share one membership lookup.
    const audiences = new Map<number, Promise<Audience>>();
    const audienceFor = (projectId: number) => {
      let audience = audiences.get(projectId);
      if (!audience) audiences.set(projectId, (audience = deps.audienceOf(projectId)));
      return audience;
    };
    let afterId = 0;
    for (;;) {
      const free = counted ? limit - counted.load.total : limit;
      const pageSize = Math.min(WAITING_PAGE_MAX, Math.max(WAITING_PAGE_MIN, free * 2));
      const page = await deps.tasks.listWaiting(afterId, pageSize);
      for (const queued of page) {
        if (closed) return;
        const load = counted || limit !== Infinity || isLimited(queued) ? (await count()).load : undefined;
        const verdict = load ? canStart(load, queued, limit) : 'start';
        if (verdict === 'installation_full') return;
        if (verdict !== 'start') continue;
        place ??= await deps.placement.plan(async () => (await count()).active);
        const where = place(queued);
        if (where === null) continue;
        // The whole row is read only for a task about to start; it is what the task runs with.
        const task = await deps.tasks.findById(queued.id);
        if (task?.status !== 'waiting') continue;
        const runner = where === 'local' ? { node_id: deps.nodeId } : { runner_id: where };
        const audience = await audienceFor(task.project_id);
        if (!(await deps.statuses.transition(task, ['waiting'], 'starting', runner, audience))) continue;
        task.status = 'starting';
        if (counted) countStarted(counted.load, task);
        if (where === 'local') deps.startLocal(task, audience, queued.template_name);
        else deps.placement.notify(where, task.id, 'assigned');
      }
      const last = page.at(-1);
      if (page.length < pageSize || !last) return;
      afterId = last.id;
    }
  }

  return {
    /** Runs a dispatch round now, or right after the one under way. */
    wake(): void {
      if (closed) return;
      if (dispatching) {
        dispatchAgain = true;
        return;
      }
      dispatching = true;
      void (async () => {
        try {
          do {
            dispatchAgain = false;
            await dispatch();
          } while (dispatchAgain && !closed);
        } catch (error) {
          deps.logger.error({ err: error }, 'task dispatch failed');
        } finally {
          dispatching = false;
        }
      })();
    },

    /** No round starts any more, and the one under way claims nothing more. */
    close(): void {
      closed = true;
    },
  };
}
