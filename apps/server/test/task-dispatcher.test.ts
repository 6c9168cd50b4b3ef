import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TaskPlacement } from '../src/modules/tasks/task-dispatcher.ts';
import { createTaskDispatcher } from '../src/modules/tasks/task-dispatcher.ts';
import type { TaskStatuses } from '../src/modules/tasks/task-statuses.ts';
import type { TasksRepository } from '../src/modules/tasks/tasks.repository.ts';
import type { QueuedTaskRow, StartedTaskCount, TaskRow } from '../src/modules/tasks/tasks.table.ts';

interface StoredTask extends QueuedTaskRow {
  status: string;
}

/** A store of tasks in memory, counting how often a round counts the started ones or reads the queue. */
function createStore(tasks: StoredTask[]) {
  const reads = { counts: 0, pages: 0 };
  const isStarted = (task: StoredTask) => task.status !== 'waiting' && task.status !== 'success';
  const repository = {
    countStarted(): Promise<StartedTaskCount[]> {
      reads.counts += 1;
      return Promise.resolve(
        tasks
          .filter(isStarted)
          .map((task) => ({ project_id: task.project_id, template_id: task.template_id, runner_id: null, count: 1 })),
      );
    },
    listWaiting(afterId: number, limit: number): Promise<QueuedTaskRow[]> {
      reads.pages += 1;
      return Promise.resolve(tasks.filter((task) => task.status === 'waiting' && task.id > afterId).slice(0, limit));
    },
    findById(id: number): Promise<TaskRow | undefined> {
      const task = tasks.find((t) => t.id === id);
      return Promise.resolve(task ? ({ ...task } as unknown as TaskRow) : undefined);
    },
  };
  const statuses = {
    transition(task: Pick<TaskRow, 'id'>, from: readonly string[], status: string): Promise<boolean> {
      const stored = tasks.find((t) => t.id === task.id);
      if (!stored || !from.includes(stored.status)) return Promise.resolve(false);
      stored.status = status;
      return Promise.resolve(true);
    },
  };
  return { reads, repository, statuses };
}

function queuedTask(id: number, overrides: Partial<StoredTask> = {}): StoredTask {
  return {
    id,
    project_id: 1,
    template_id: 10,
    template_name: 'deploy',
    allow_parallel_tasks: 1,
    max_parallel_tasks: 0,
    status: 'waiting',
    ...overrides,
  };
}

/** Runs one dispatch round over the tasks and answers the ids it started here and what it read. */
async function dispatchOnce(tasks: StoredTask[], maxParallelTasks = 0, withRunners = false) {
  const store = createStore(tasks);
  const startedHere: number[] = [];
  const placement: TaskPlacement = {
    async plan(readActive) {
      if (withRunners) await readActive();
      return () => 'local';
    },
    notify: () => undefined,
  };
  const dispatcher = createTaskDispatcher({
    nodeId: 'node',
    maxParallelTasks,
    tasks: store.repository as unknown as TasksRepository,
    placement,
    statuses: store.statuses as unknown as TaskStatuses,
    logger: { error: () => undefined } as unknown as FastifyBaseLogger,
    audienceOf: () => Promise.resolve({ memberIds: new Set<number>() }),
    startLocal: (task) => startedHere.push(task.id),
  });
  dispatcher.wake();
  // The round runs on promises the fakes settle at once: it is over after a few turns of the event loop,
  // however loaded the machine (turns, not milliseconds).
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
  return { startedHere, reads: store.reads };
}

describe('a dispatch round', () => {
  it('starts every queued task without counting the started ones when nothing limits them', async () => {
    const tasks = [queuedTask(1, { status: 'running' }), queuedTask(2), queuedTask(3)];
    const { startedHere, reads } = await dispatchOnce(tasks);
    expect(startedHere).toEqual([2, 3]);
    expect(reads.counts).toBe(0);
  });

  it('counts the started tasks once for a template that runs one task at a time, and keeps its second task queued', async () => {
    const tasks = [queuedTask(1, { allow_parallel_tasks: 0 }), queuedTask(2, { allow_parallel_tasks: 0 })];
    const { startedHere, reads } = await dispatchOnce(tasks);
    expect(startedHere).toEqual([1]);
    expect(reads.counts).toBe(1);
    expect(tasks.map((t) => t.status)).toEqual(['starting', 'waiting']);
  });

  it("counts what this round already started toward a project's limit, however late the count is read", async () => {
    // Task 1 has no limit of its own (its project has none); tasks 2 to 4 are in a project of limit 2, which 1 is not.
    const tasks = [
      queuedTask(1, { project_id: 5 }),
      queuedTask(2, { project_id: 6, max_parallel_tasks: 2 }),
      queuedTask(3, { project_id: 6, max_parallel_tasks: 2 }),
      queuedTask(4, { project_id: 6, max_parallel_tasks: 2 }),
    ];
    const { startedHere, reads } = await dispatchOnce(tasks);
    expect(startedHere).toEqual([1, 2, 3]);
    expect(reads.counts).toBe(1);
  });

  it('reads neither the count twice nor the queue when the installation is full', async () => {
    const tasks = [queuedTask(1, { status: 'running' }), queuedTask(2)];
    const { startedHere, reads } = await dispatchOnce(tasks, 1);
    expect(startedHere).toEqual([]);
    expect(reads).toEqual({ counts: 1, pages: 0 });
  });

  it('gives the runners their load when there are runners', async () => {
    const { startedHere, reads } = await dispatchOnce([queuedTask(1)], 0, true);
    expect(startedHere).toEqual([1]);
    expect(reads.counts).toBe(1);
  });
});
