import { FINISHED_TASK_STATUSES, LOGS_SEARCH_MIN_WORD, MAX_INTEGER, type TaskStatus } from '@gantry/contract';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import {
  estimateWordLines,
  insertLogIndexRows,
  listTasksHolding,
  selectLogMatches,
  type IndexedLine,
} from '../../db/log-search-index.ts';
import { listLineText } from './task-output.repository.ts';
import { selectTasksWithTemplates, type TaskListRow } from './tasks.repository.ts';

/** A task whose log is not all in the search index yet. */
export interface UnindexedTask {
  id: number;
  log_indexed: number;
  output_lines: number;
}

export interface LogsSearchFilter {
  templateId?: number | undefined;
  status?: TaskStatus | undefined;
  userId?: number | undefined;
  /** Timestamps: tasks queued at or after `createdFrom` and before `createdBefore`. */
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
}

/** A search's filters on a query of tasks. */
function applyFilter<O>(
  query: SelectQueryBuilder<Database, 'task', O>,
  filter: LogsSearchFilter,
): SelectQueryBuilder<Database, 'task', O> {
  let q = query;
  if (filter.templateId !== undefined) q = q.where('template_id', '=', filter.templateId);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.userId !== undefined) q = q.where('user_id', '=', filter.userId);
  if (filter.createdFrom !== undefined) q = q.where('created', '>=', filter.createdFrom);
  if (filter.createdBefore !== undefined) q = q.where('created', '<', filter.createdBefore);
  return q;
}

/**
 * The search index across task logs (migration 0020; dialect SQL in db/log-search-index.ts): filling it a
 * slice at a time, and the queries of a search. Every search query is scoped by project through the task.
 */
export function createTaskLogIndexRepository(db: Db, dialect: Dialect) {
  return {
    /** Finished tasks with lines not in the index, in id order after `afterId`. */
    listUnindexed(afterId: number, limit: number): Promise<UnindexedTask[]> {
      return db
        .selectFrom('task')
        .select(['id', 'log_indexed', 'output_lines'])
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .where((eb) => eb('log_indexed', '<', eb.ref('output_lines')))
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** Of the given tasks, the finished ones with lines not in the index, in id order. */
    listUnindexedOf(taskIds: readonly number[]): Promise<UnindexedTask[]> {
      if (taskIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('task')
        .select(['id', 'log_indexed', 'output_lines'])
        .where('id', 'in', taskIds)
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .where((eb) => eb('log_indexed', '<', eb.ref('output_lines')))
        .orderBy('id')
        .execute();
    },

    /**
     * Indexes each slice's lines `from <= seq < to` of its task, unless someone already has, all in one
     * transaction (one commit for many short logs: a commit, not the rows, is what costs most on PostgreSQL and
     * MariaDB). Each task row moves from `from` to `to` first, in the same transaction, so of two nodes indexing
     * the same task one waits on the row and then finds it moved. A task deleted meanwhile has no row to move.
     * Answers the ids of the tasks whose slice this call indexed.
     */
    async indexSlices(
      slices: readonly { taskId: number; from: number; to: number }[],
      toWords: (output: string) => string,
    ): Promise<number[]> {
      return db.transaction().execute(async (trx) => {
        const indexed: number[] = [];
        const rows: IndexedLine[] = [];
        for (const { taskId, from, to } of slices) {
          const claimed = await tryUpdate(
            trx.updateTable('task').set({ log_indexed: to }).where('id', '=', taskId).where('log_indexed', '=', from),
          );
          if (!claimed) continue;
          indexed.push(taskId);
          for (const line of await listLineText(trx, taskId, from, to)) {
            const words = toWords(line.output);
            if (words !== '') rows.push({ task_id: taskId, seq: line.seq, words });
          }
        }
        await insertLogIndexRows(trx, dialect, rows);
        return indexed;
      });
    },

    /**
     * The task id of each of the store's newest `limit` lines holding `phrase` (every project's: the caller
     * keeps its own project's tasks), newest first, below `belowTaskId`. Bounded on SQLite whatever the phrase;
     * on PostgreSQL and MariaDB only for a phrase whose rarest word is rare (estimateLines tells).
     */
    async listNewestMatches(phrase: string, belowTaskId: number | undefined, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom(selectLogMatches(dialect, phrase, { belowTaskId }, limit).as('m'))
        .select('m.task_id')
        .execute();
      return rows.map((row) => Number(row.task_id)).sort((a, b) => b - a);
    },

    /** Of the given tasks, the project's that pass the filter, newest first, at most `limit`. */
    async listProjectTasksOf(
      projectId: number,
      ids: readonly number[],
      filter: LogsSearchFilter,
      limit: number,
    ): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await applyFilter(
        db.selectFrom('task').select('id').where('project_id', '=', projectId).where('id', 'in', ids),
        filter,
      )
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => Number(row.id));
    },

    /** The project's tasks with indexed lines that pass the filter, newest first, below `belowTaskId`. */
    async listIndexedTasks(
      projectId: number,
      filter: LogsSearchFilter,
      belowTaskId: number | undefined,
      limit: number,
    ): Promise<{ id: number; log_indexed: number }[]> {
      let query = db
        .selectFrom('task')
        .select(['id', 'log_indexed'])
        .where('project_id', '=', projectId)
        .where('log_indexed', '>', 0);
      // A bound even on the first page: without one MariaDB answers a filter (a template, a status) by
      // intersecting two indexes whole and sorting (0.8 to 0.9 s at 1,000,000 tasks); with one it walks the
      // filter's index newest first and stops at the limit (20 ms).
      query = belowTaskId === undefined ? query.where('id', '<=', MAX_INTEGER) : query.where('id', '<', belowTaskId);
      const rows = await applyFilter(query, filter).orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => ({ id: Number(row.id), log_indexed: Number(row.log_indexed) }));
    },

    /** Which of the given tasks have a line holding `phrase`: bounded by those tasks' lines. */
    listTasksHolding(phrase: string, ids: readonly number[]): Promise<number[]> {
      return listTasksHolding(db, dialect, phrase, ids);
    },

    /** About how many lines hold the phrase's rarest word, from the newest `sample` index rows; undefined on SQLite. */
    estimateLines(phrase: string, sample: number): Promise<number | undefined> {
      const words = phrase.split(' ').filter((word) => word.length >= LOGS_SEARCH_MIN_WORD);
      return estimateWordLines(db, dialect, words, sample);
    },

    /** Seqs of one task's lines holding `phrase`, in order, at most `limit`. */
    async listMatchingLines(taskId: number, phrase: string, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom(selectLogMatches(dialect, phrase, { taskId }, limit).as('m'))
        .select('m.seq')
        .orderBy('m.seq')
        .execute();
      return rows.map((row) => Number(row.seq));
    },

    /** The project's tasks of these ids, with their templates' and users' names. */
    listTasks(projectId: number, ids: number[]): Promise<TaskListRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return selectTasksWithTemplates(db, projectId, ids).execute();
    },

    /** The task's lines with the given seqs (a project's task: the caller found it in the project). */
    listLines(taskId: number, seqs: number[]): Promise<{ seq: number; output: string }[]> {
      if (seqs.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('task_output')
        .select(['seq', 'output'])
        .where('task_id', '=', taskId)
        .where('seq', 'in', seqs)
        .orderBy('seq')
        .execute();
    },
  };
}

export type TaskLogIndexRepository = ReturnType<typeof createTaskLogIndexRepository>;
