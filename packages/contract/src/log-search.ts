import { z } from 'zod';
import { DateTime, Id, QueryId, queryInteger, wireInteger } from './common.ts';
import { projectEndpoint } from './endpoint.ts';
import { FINISHED_TASK_STATUSES, TaskStatus } from './task-statuses.ts';

/** Longest search text, in characters. */
export const LOGS_SEARCH_MAX_LENGTH = 500;
/** Most words one search text may hold. */
export const LOGS_SEARCH_MAX_WORDS = 16;
/** Shortest word a search needs at least one of: MariaDB's FULLTEXT indexes no shorter word. */
export const LOGS_SEARCH_MIN_WORD = 3;
/** Tasks one page of results holds at most, and by default. */
export const LOGS_SEARCH_MAX_TASKS = 50;
export const LOGS_SEARCH_DEFAULT_TASKS = 20;
/** Matching lines shown per task; `more` says when the task has others. */
export const LOGS_SEARCH_LINES_PER_TASK = 5;
/** Lines of context shown before and after each matching line. */
export const LOGS_SEARCH_CONTEXT = 2;

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const day = (name: string) =>
  z
    .string()
    .regex(DAY, `${name} must be a date as YYYY-MM-DD`)
    // A day that exists: Date rolls 2026-02-31 over into March, so the day must read back the same.
    .refine((text) => isCalendarDay(text), `${name} must be a date as YYYY-MM-DD`);

/** Whether YYYY-MM-DD text names a day of the calendar (not 2026-02-31, which Date would roll into March). */
export function isCalendarDay(text: string): boolean {
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

const FinishedStatus = z.enum(FINISHED_TASK_STATUSES as [TaskStatus, ...TaskStatus[]], {
  error: `status must be one of ${FINISHED_TASK_STATUSES.join(', ')}`,
});

export const LogsSearchQuery = z
  .object({
    q: z
      .string({ error: 'Search text is required' })
      .trim()
      .min(1, 'Search text is required')
      .max(LOGS_SEARCH_MAX_LENGTH, `Search text must be at most ${LOGS_SEARCH_MAX_LENGTH} characters`),
    template_id: QueryId.optional(),
    status: FinishedStatus.optional(),
    user_id: QueryId.optional(),
    /** Tasks queued on or after this day (UTC). */
    from: day('from').optional(),
    /** Tasks queued on or before this day (UTC). */
    to: day('to').optional(),
    limit: queryInteger({ min: 1, max: LOGS_SEARCH_MAX_TASKS, message: 'Invalid limit' }).optional(),
    /** The `next_cursor` of the previous page: tasks older than it. */
    cursor: queryInteger({ min: 1, message: 'Invalid cursor' }).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type LogsSearchQuery = z.output<typeof LogsSearchQuery>;

export const LogsSearchLine = z.object({
  /** 0-based, as in the output endpoint; the log dialog's `line` is seq + 1. */
  seq: wireInteger(),
  /** The line as shown: secrets masked, without colour codes. */
  text: z.string(),
  /** A line that matches, rather than one of their context. */
  match: z.boolean(),
});
export type LogsSearchLine = z.infer<typeof LogsSearchLine>;

export const LogsSearchTask = z.object({
  task_id: Id,
  template_id: Id,
  template_name: z.string(),
  status: TaskStatus,
  user_id: Id.nullable(),
  user_name: z.string().nullable(),
  created: DateTime,
  end: DateTime.nullable(),
  /** The first matching lines with their context, in seq order. */
  lines: z.array(LogsSearchLine),
  /** The task has more matching lines than shown. */
  more: z.boolean(),
});
export type LogsSearchTask = z.infer<typeof LogsSearchTask>;

export const LogsSearchResult = z.object({
  /** Newest task first. */
  tasks: z.array(LogsSearchTask),
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: Id.nullable(),
});
export type LogsSearchResult = z.infer<typeof LogsSearchResult>;

/** Gantry's own: which finished tasks of a project printed a text (docs/task-log.md, "Search across tasks"). */
export const logsSearchApi = {
  search: projectEndpoint('/logs/search', { method: 'GET', query: LogsSearchQuery, response: LogsSearchResult }),
};
