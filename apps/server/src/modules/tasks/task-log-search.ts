import type { z } from 'zod';
import type { TaskOutputSearchQuery, TaskOutputSearchResult } from '@gantry/contract';
import type { LogMatcher } from './log-matcher.ts';
import { literalPattern } from './log-matcher.ts';
import { stripAnsi } from './log-text.ts';

export type LogSearchQuery = z.output<typeof TaskOutputSearchQuery>;

interface LogLine {
  seq: number;
  output: string;
}

/**
 * What one step reads from the store and hands to the matcher: the next step's read overlaps the
 * matching of this one. Bounded in characters as well as lines, so a log of long lines is read in
 * small steps rather than gigabytes at once.
 */
const LOG_SEARCH_STEP: LogSearchStep = { lines: 50_000, chars: 8 * 1024 * 1024 };
const DEFAULT_LIMIT = 200;

interface LogSearchStep {
  lines: number;
  chars: number;
}

interface TaskLogSearchDeps {
  /**
   * Lines of a task with a seq above `afterSeq`, in seq order: at most `step.lines`, and no more than
   * `step.chars` characters in all unless the first line alone is longer. Empty at the end of the log.
   */
  readLines(taskId: number, afterSeq: number, step: LogSearchStep): Promise<LogLine[]>;
  matcher: LogMatcher;
  step?: LogSearchStep;
}

export type TaskLogSearch = ReturnType<typeof createTaskLogSearch>;

/**
 * Search inside one task's log: the whole log is read in seq order and matched as the user sees it
 * (without colour codes; secrets were masked before the lines were stored), so the count is exact
 * and a live task's log is searched up to its newest stored line.
 */
export function createTaskLogSearch({ readLines, matcher, step = LOG_SEARCH_STEP }: TaskLogSearchDeps) {
  return {
    /** `userId` is who searches: the number of searches one user runs at once is limited. */
    async search(taskId: number, query: LogSearchQuery, userId: number): Promise<TaskOutputSearchResult> {
      const session = matcher.open(
        { source: query.regex ? query.q : literalPattern(query.q), flags: query.case ? '' : 'i' },
        !query.regex,
        userId,
      );
      const after = query.after ?? -1;
      const limit = query.limit ?? DEFAULT_LIMIT;
      const lines: number[] = [];
      let count = 0;
      let searched = 0;
      try {
        let next = readLines(taskId, -1, step);
        for (;;) {
          const rows = await next;
          if (rows.length === 0) break;
          const last = rows.at(-1)?.seq ?? 0;
          next = readLines(taskId, last, step);
          // Awaited in the next step; a failure while this step still matches must not go unhandled meanwhile.
          next.catch(() => undefined);
          const indices = await session.match(rows.map((row) => stripAnsi(row.output)));
          count += indices.length;
          searched += rows.length;
          for (const index of indices) {
            const seq = rows[index]?.seq ?? -1;
            if (seq > after && lines.length < limit) lines.push(seq);
          }
        }
      } finally {
        session.close();
      }
      return { count, lines, searched };
    },
  };
}
