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
/**
 * Matching lines of the store one page looks through at most, newest first: a word nearly every line holds
 * would otherwise have the store read (SQLite: on the server's only thread) every line of every project.
 * A page that runs out of them before it is full ends there, with a cursor to go on from.
 */
const SCAN_LINES = 50_000;

interface LogsSearchDeps {
  index: TaskLogIndexRepository;
  /** SCAN_LINES, smaller in tests. */
  scanLines?: number;
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
 * Search across the finished tasks of a project (docs/task-log.md, "Search across tasks"): the store's text
 * index finds the tasks, newest first, then each task's first matching lines with their context.
 */
export function createLogsSearch({ index, scanLines = SCAN_LINES }: LogsSearchDeps) {
  return {
    async search(projectId: number, query: LogsSearchQuery): Promise<LogsSearchResult> {
      const phrase = toPhrase(query.q);
      const limit = query.limit ?? LOGS_SEARCH_DEFAULT_TASKS;
      const { ids, scanFloor } = await index.listMatchingTasks(
        projectId,
        phrase,
        toFilter(query),
        query.cursor,
        limit + 1,
        scanLines,
      );
      const page = ids.slice(0, limit);
      const details = new Map((await index.listTasks(projectId, page)).map((task) => [Number(task.id), task]));
      const tasks: LogsSearchTask[] = [];
      for (const id of page) {
        const task = details.get(id);
        if (!task) continue;
        const { lines, more } = await readLines(index, id, phrase);
        if (!lines.some((line) => line.match)) continue;
        tasks.push({
          task_id: id,
          template_id: task.template_id,
          template_name: task.template_name,
          status: task.status,
          user_id: task.user_id,
          user_name: task.user_name,
          created: task.created,
          end: task.end,
          lines,
          more,
        });
      }
      return { tasks, next_cursor: ids.length > limit ? (page.at(-1) ?? null) : (scanFloor ?? null) };
    },
  };
}

export type LogsSearch = ReturnType<typeof createLogsSearch>;
