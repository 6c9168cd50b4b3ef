import {
  LOGS_SEARCH_CONTEXT,
  LOGS_SEARCH_DEFAULT_TASKS,
  LOGS_SEARCH_LINES_PER_TASK,
  LOGS_SEARCH_MAX_WORDS,
  LOGS_SEARCH_MIN_WORD,
  type LogsSearchLine,
  type LogsSearchQuery,
  type LogsSearchResult,
  type LogsSearchTask,
} from '@gantry/contract';
import { validationFailed } from '../../errors.ts';
import { holdsPhrase, toIndexedWords, toSearchWords } from './log-search-words.ts';
import { stripAnsi } from './log-text.ts';
import type { LogsSearchFilter, TaskLogIndexRepository } from './task-log-index.repository.ts';

/** Matching lines read per task beyond those shown, in case MariaDB's index finds lines the phrase check drops. */
const LINES_READ_PER_TASK = 4 * LOGS_SEARCH_LINES_PER_TASK;
/** Characters of a line a result shows at most. */
const SHOWN_CHARS = 2000;
const DAY_MS = 86_400_000;

/** How much one page of a search may read: what keeps its cost bounded whatever the store's size. */
const SEARCH_BOUNDS = {
  /**
   * Matching lines of the store a page reads from the text index at most, newest first (every project's: the
   * index knows no project). Fewer than this and they are every match below the cursor, so the page is exact;
   * this many and the page goes on below the oldest task they reached by walking the project's tasks.
   */
  matchLines: 5_000,
  /**
   * On PostgreSQL and MariaDB, the text index answers a phrase only by reading every line that holds its rarest
   * word (neither can stop at a limit): it is asked only when about this many lines or fewer hold that word.
   */
  indexFirstLines: 20_000,
  /** Newest index rows read to estimate how many lines hold a word. */
  sampleRows: 10_000,
  /**
   * Lines of the project's tasks (as the index holds them) a page's walk reads at most before it stops with a
   * cursor: the walk reads tasks newest first, each from its own index rows, so its cost is this bound, not the
   * store's size nor how common the words are.
   */
  walkLines: 50_000,
  /** Tasks the walk asks the store about in one statement. */
  walkBatch: 100,
  /** How many tasks' lines a search reads at once. */
  tasksReadAtOnce: 4,
};

interface LogsSearchDeps {
  index: TaskLogIndexRepository;
  /** Some of the bounds, smaller in tests. */
  bounds?: Partial<typeof SEARCH_BOUNDS>;
}

/** The words of a search text as one phrase, or the 400 that says why it cannot be searched. */
function toPhrase(text: string): string {
  const words = toSearchWords(text);
  if (words.length === 0) throw validationFailed('Search text must hold a word (letters or digits)');
  if (words.length > LOGS_SEARCH_MAX_WORDS)
    throw validationFailed(`Search text must hold at most ${LOGS_SEARCH_MAX_WORDS} words`);
  if (!words.some((word) => word.length >= LOGS_SEARCH_MIN_WORD))
    throw validationFailed(`Search text must hold a word of at least ${LOGS_SEARCH_MIN_WORD} letters or digits`);
  return words.join(' ');
}

function toFilter(query: LogsSearchQuery): LogsSearchFilter {
  return {
    templateId: query.template_id,
    status: query.status,
    userId: query.user_id,
    createdFrom: query.from === undefined ? undefined : `${query.from}T00:00:00.000Z`,
    createdBefore:
      query.to === undefined ? undefined : new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

/** The matching lines and their context, as shown: without colour codes, secrets masked when stored. */
async function readLines(
  index: TaskLogIndexRepository,
  taskId: number,
  phrase: string,
): Promise<{ lines: LogsSearchLine[]; more: boolean }> {
  const candidates = await index.listMatchingLines(taskId, phrase, LINES_READ_PER_TASK + 1);
  const around = new Set<number>();
  for (const seq of candidates)
    for (let s = Math.max(0, seq - LOGS_SEARCH_CONTEXT); s <= seq + LOGS_SEARCH_CONTEXT; s++) around.add(s);
  const stored = await index.listLines(taskId, [...around]);
  const text = new Map(stored.map((line) => [Number(line.seq), line.output]));
  const matches = candidates.filter((seq) => holdsPhrase(toIndexedWords(text.get(seq) ?? ''), phrase));
  const shown = matches.slice(0, LOGS_SEARCH_LINES_PER_TASK);
  const wanted = new Map<number, boolean>();
  for (const seq of shown)
    for (let s = Math.max(0, seq - LOGS_SEARCH_CONTEXT); s <= seq + LOGS_SEARCH_CONTEXT; s++)
      if (!wanted.get(s)) wanted.set(s, shown.includes(s));
  const lines = [...wanted.entries()]
    .filter(([seq]) => text.has(seq))
    .sort(([a], [b]) => a - b)
    .map(([seq, match]) => ({ seq, text: stripAnsi(text.get(seq) ?? '').slice(0, SHOWN_CHARS), match }));
  return { lines, more: matches.length > shown.length || candidates.length > LINES_READ_PER_TASK };
}

/**
 * Search across the finished tasks of a project (docs/task-log.md, "Search across tasks"): the matching tasks
 * of a page, newest first, then each task's first matching lines with their context. A page reads a bounded
 * amount whatever the store's size and however common the words: the text index's newest matches when that is
 * cheap (a rare word, or SQLite), else (and below the oldest task those matches reached) the project's tasks
 * newest first, each checked on its own lines, up to SEARCH_BOUNDS.walkLines lines; a page that stops there is
 * short and its cursor goes on from the last task it checked.
 */
export function createLogsSearch({ index, bounds }: LogsSearchDeps) {
  const { matchLines, indexFirstLines, sampleRows, walkLines, walkBatch, tasksReadAtOnce } = {
    ...SEARCH_BOUNDS,
    ...bounds,
  };
  /** Up to `want` matching task ids below `below`, and where the next page starts when the bounds stopped it. */
  async function findTaskIds(
    projectId: number,
    phrase: string,
    filter: LogsSearchFilter,
    below: number | undefined,
    want: number,
  ): Promise<{ ids: number[]; floor: number | undefined }> {
    let ids: number[] = [];
    let from = below;
    const estimate = await index.estimateLines(phrase, sampleRows);
    if (estimate === undefined || estimate <= indexFirstLines) {
      const matches = await index.listNewestMatches(phrase, below, matchLines);
      ids = await index.listProjectTasksOf(projectId, [...new Set(matches)], filter, want);
      if (matches.length < matchLines || ids.length >= want) return { ids, floor: undefined };
      // Every match of the tasks above the oldest one reached was read: the walk goes on below it.
      from = matches.at(-1);
    }
    let spent = 0;
    while (ids.length < want) {
      const batch = await index.listIndexedTasks(projectId, filter, from, walkBatch);
      if (batch.length === 0) return { ids, floor: undefined };
      const taken: number[] = [];
      for (const task of batch) {
        if (taken.length > 0 && spent + task.log_indexed > walkLines) break;
        taken.push(task.id);
        spent += task.log_indexed;
      }
      const holding = new Set(await index.listTasksHolding(phrase, taken));
      for (const id of taken) {
        if (holding.has(id)) ids.push(id);
        if (ids.length >= want) return { ids, floor: undefined };
      }
      from = taken.at(-1);
      if (taken.length < batch.length || spent >= walkLines) return { ids, floor: from };
      if (batch.length < walkBatch) return { ids, floor: undefined };
    }
    return { ids, floor: undefined };
  }

  return {
    async search(projectId: number, query: LogsSearchQuery): Promise<LogsSearchResult> {
      const phrase = toPhrase(query.q);
      const limit = query.limit ?? LOGS_SEARCH_DEFAULT_TASKS;
      const { ids, floor } = await findTaskIds(projectId, phrase, toFilter(query), query.cursor, limit + 1);
      const page = ids.slice(0, limit);
      const details = new Map((await index.listTasks(projectId, page)).map((task) => [Number(task.id), task]));
      const found = page.flatMap((id) => details.get(id) ?? []);
      // A few tasks' lines at a time: one after the other, a page of 20 tasks was 40 round trips in a
      // row; all at once, one search would hold every connection of the pool.
      const read: ({ task: (typeof found)[number] } & Awaited<ReturnType<typeof readLines>>)[] = [];
      for (let i = 0; i < found.length; i += tasksReadAtOnce)
        read.push(
          ...(await Promise.all(
            found
              .slice(i, i + tasksReadAtOnce)
              .map(async (task) => ({ task, ...(await readLines(index, Number(task.id), phrase)) })),
          )),
        );
      const tasks: LogsSearchTask[] = [];
      for (const { task, lines, more } of read) {
        if (!lines.some((line) => line.match)) continue;
        tasks.push({
          task_id: Number(task.id),
          template_id: task.template_id,
          template_name: task.tpl_alias,
          status: task.status,
          user_id: task.user_id,
          user_name: task.user_name,
          created: task.created,
          end: task.end,
          lines,
          more,
        });
      }
      return { tasks, next_cursor: ids.length > limit ? (page.at(-1) ?? null) : (floor ?? null) };
    },
  };
}

export type LogsSearch = ReturnType<typeof createLogsSearch>;
