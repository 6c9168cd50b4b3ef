import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { RetentionCandidate, TaskRetentionRepository } from './task-retention.repository.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Tasks examined per round: keeps every id list well under the databases' parameter limits. */
const TASK_BATCH = 500;
/** Log lines one statement deletes at most, so a huge log never becomes one giant delete. */
const OUTPUT_SLICE = 5000;
/** Longest pause between pages (see removeAll). */
const MAX_PAUSE_MS = 2000;

export interface TaskRetentionDeps {
  config: Pick<Config, 'task_retention_days' | 'max_tasks_per_template'>;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'error'>;
  history: TaskRetentionRepository;
}

/**
 * Deletes the history Semaphore users see grow without bound: finished tasks past the age limit
 * and, per template, finished tasks beyond the newest N, with their logs. Waiting and running tasks
 * are never touched, nor builds that a remaining deploy names. Every step is idempotent, so several
 * cluster nodes may run it at the same time.
 */
export function createTaskRetention({ config, clock, logger, history }: TaskRetentionDeps) {
  const enabled = config.task_retention_days > 0 || config.max_tasks_per_template > 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function deleteOutput(doomed: RetentionCandidate[]): Promise<void> {
    let group: number[] = [];
    let groupLines = 0;
    for (const task of doomed) {
      const lines = Number(task.output_lines);
      if (lines > OUTPUT_SLICE) {
        for (let from = 0; from < lines; from += OUTPUT_SLICE)
          await history.deleteOutputRange(task.id, from, from + OUTPUT_SLICE);
        continue;
      }
      if (group.length > 0 && groupLines + lines > OUTPUT_SLICE) {
        await history.deleteOutputOfTasks(group);
        group = [];
        groupLines = 0;
      }
      group.push(task.id);
      groupLines += lines;
    }
    await history.deleteOutputOfTasks(group);
  }

  /** Removes one page of candidates, except builds another task still refers to. */
  async function removeBatch(candidates: RetentionCandidate[]): Promise<number> {
    const ids = candidates.map((c) => Number(c.id));
    const referenced = new Set(await history.listBuildsReferencedByOthers(ids));
    const doomed = candidates
      .map((c) => ({ id: Number(c.id), output_lines: Number(c.output_lines) }))
      .filter((c) => !referenced.has(c.id));
    await deleteOutput(doomed);
    return history.deleteFinished(doomed.map((c) => c.id));
  }

  /** Pages through candidates by id, so kept builds are passed over instead of found again. */
  async function removeAll(nextPage: (afterId: number) => Promise<RetentionCandidate[]>): Promise<number> {
    let removed = 0;
    let afterId = 0;
    while (!stopped) {
      const started = performance.now();
      const page = await nextPage(afterId);
      if (page.length === 0) break;
      removed += await removeBatch(page);
      afterId = Number(page[page.length - 1]!.id);
      // Twice as long a pause as the page took: purging a year's backlog keeps the store busy at most
      // a third of the time, so the history and log views stay quick while it runs.
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_PAUSE_MS, 2 * (performance.now() - started))));
    }
    return removed;
  }

  /** One full pass; returns how many tasks were deleted. */
  async function runOnce(): Promise<number> {
    let removed = 0;
    if (config.task_retention_days > 0) {
      const before = new Date(clock.now().getTime() - config.task_retention_days * DAY_MS).toISOString();
      removed += await removeAll((afterId) => history.listFinishedEndedBefore(before, afterId, TASK_BATCH));
    }
    const keep = config.max_tasks_per_template;
    if (keep > 0) {
      for (const templateId of await history.listTemplatesWithMoreFinishedThan(keep)) {
        if (stopped) break;
        const oldestKept = await history.findOldestKeptFinished(templateId, keep);
        if (oldestKept === undefined) continue;
        removed += await removeAll((afterId) =>
          history.listFinishedOfTemplateBelow(templateId, oldestKept, afterId, TASK_BATCH),
        );
      }
    }
    return removed;
  }

  function runInBackground(): void {
    if (running) return;
    running = runOnce()
      .then((removed) => {
        if (removed > 0) logger.info({ removed }, `Task retention removed ${removed} finished task(s)`);
      })
      .catch((error: unknown) => logger.error({ err: error }, 'Task retention failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    enabled,
    runOnce,
    /** Runs now and then every hour; does nothing while both limits are 0. */
    start(): void {
      if (!enabled || timer) return;
      stopped = false;
      runInBackground();
      timer = setInterval(runInBackground, HOUR_MS);
      timer.unref();
    },
    /** Stops the timer and waits for a pass under way, which ends after its current page. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
