import type { Logger } from 'pino';
import { toIndexedWords } from './log-search-words.ts';
import type { TaskLogIndexRepository, UnindexedTask } from './task-log-index.repository.ts';

/**
 * Lines indexed per transaction: short enough that a running task's lines never wait long for the store. Short
 * logs share a transaction up to this many lines, as a commit costs more than the rows of a short log.
 */
const SLICE_LINES = 2000;
/** Tasks read per page of the sweep. */
const SWEEP_PAGE = 100;
/** How often the sweep looks for finished tasks not yet indexed (left by a crash, another node, a copy). */
const SWEEP_MS = 60_000;

interface TaskLogIndexerDeps {
  index: TaskLogIndexRepository;
  logger: Pick<Logger, 'error'>;
}

/**
 * SQLite answers synchronously, so awaiting it never leaves the event loop: requests and running tasks' lines
 * get in between transactions, or indexing a long log would hold the server until it is done.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Fills the search index across task logs (docs/task-log.md) after tasks finish, in slices, off the path that
 * stores running tasks' lines. A finished task is indexed at once; a sweep at start-up and every minute
 * catches up whatever a crash or another node left. Several nodes may index at the same time: each slice
 * moves `task.log_indexed` in the transaction that indexes it, so a slice is indexed once.
 */
export function createTaskLogIndexer({ index, logger }: TaskLogIndexerDeps) {
  const queued = new Set<number>();
  let sweepWanted = false;
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function indexTask(task: UnindexedTask): Promise<void> {
    let from = Number(task.log_indexed);
    const total = Number(task.output_lines);
    while (from < total && !stopped) {
      const to = Math.min(total, from + SLICE_LINES);
      if ((await index.indexSlices([{ taskId: task.id, from, to }], toIndexedWords)).length === 0) return;
      from = to;
      await yieldToEventLoop();
    }
  }

  /** Indexes short logs together, a transaction up to SLICE_LINES lines, and long ones slice by slice. */
  async function indexTasks(tasks: readonly UnindexedTask[]): Promise<void> {
    let batch: { taskId: number; from: number; to: number }[] = [];
    let lines = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await index.indexSlices(batch, toIndexedWords);
      batch = [];
      lines = 0;
      await yieldToEventLoop();
    };
    for (const task of tasks) {
      if (stopped) return;
      queued.delete(task.id);
      const from = Number(task.log_indexed);
      const left = Number(task.output_lines) - from;
      if (left >= SLICE_LINES) {
        await flush();
        await indexTask(task);
        continue;
      }
      if (lines + left > SLICE_LINES) await flush();
      batch.push({ taskId: task.id, from, to: Number(task.output_lines) });
      lines += left;
    }
    if (!stopped) await flush();
  }

  async function sweep(): Promise<void> {
    let afterId = 0;
    while (!stopped) {
      const page = await index.listUnindexed(afterId, SWEEP_PAGE);
      await indexTasks(page);
      const last = page.at(-1);
      if (!last || page.length < SWEEP_PAGE) return;
      afterId = last.id;
    }
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      if (sweepWanted) {
        sweepWanted = false;
        await sweep();
        continue;
      }
      // Tasks that finished meanwhile go together, so many short tasks share transactions; in id order, as the
      // sweep's, so two nodes claiming the same tasks wait on each other rather than deadlock.
      const ids = [...queued].sort((a, b) => a - b).slice(0, SWEEP_PAGE);
      if (ids.length === 0) return;
      for (const id of ids) queued.delete(id);
      await indexTasks(await index.listUnindexedOf(ids));
    }
  }

  function kick(): void {
    if (running || stopped) return;
    running = drain()
      .catch((error: unknown) => logger.error({ err: error }, 'Indexing task logs for search failed'))
      .finally(() => {
        running = undefined;
        if (queued.size > 0 || sweepWanted) kick();
      });
  }

  async function settled(): Promise<void> {
    while (running) await running;
  }

  return {
    /** A task finished: its log goes into the index now, in the background. */
    add(taskId: number): void {
      queued.add(taskId);
      kick();
    },
    /** Indexes every finished task's lines not yet in the index, and resolves when it is done. */
    async catchUp(): Promise<void> {
      sweepWanted = true;
      kick();
      await settled();
    },
    /** A sweep now, then every minute. */
    start(): void {
      stopped = false;
      sweepWanted = true;
      kick();
      if (timer) return;
      timer = setInterval(() => {
        sweepWanted = true;
        kick();
      }, SWEEP_MS);
      timer.unref();
    },
    /** Stops after the slice under way; what is left is indexed by the next start's sweep. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await settled();
    },
  };
}
