import { FINISHED_TASK_STATUSES, type TaskStatus } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { insertLogIndexRows, selectLogMatches, type IndexedLine } from '../../db/log-search-index.ts';
import { listLineText } from './task-output.repository.ts';

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

    findUnindexed(taskId: number): Promise<UnindexedTask | undefined> {
      return db
        .selectFrom('task')
        .select(['id', 'log_indexed', 'output_lines'])
        .where('id', '=', taskId)
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .where((eb) => eb('log_indexed', '<', eb.ref('output_lines')))
        .executeTakeFirst();
    },

    /**
     * Indexes the task's lines `from <= seq < to`, unless someone already has: the task row moves from `from`
     * to `to` first, in the same transaction, so of two nodes indexing the same task one waits on the row
     * and then finds it moved (false). A task deleted meanwhile has no row to move.
     */
    async indexSlice(taskId: number, from: number, to: number, toWords: (output: string) => string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const claimed = await tryUpdate(
          trx.updateTable('task').set({ log_indexed: to }).where('id', '=', taskId).where('log_indexed', '=', from),
        );
        if (!claimed) return false;
        const lines = await listLineText(trx, taskId, from, to);
        const rows: IndexedLine[] = [];
        for (const line of lines) {
          const words = toWords(line.output);
          if (words !== '') rows.push({ task_id: taskId, seq: line.seq, words });
        }
        await insertLogIndexRows(trx, dialect, rows);
        return true;
      });
    },

    /**
     * Ids of the project's tasks with a line holding `phrase`, newest first, below `belowTaskId`, among the
     * newest `scanLines` matching lines of the store: at most `limit`. `scanFloor` is set when those lines
     * ran out before the page was full: the oldest task they reached, below which the search goes on.
     */
    async listMatchingTasks(
      projectId: number,
      phrase: string,
      filter: LogsSearchFilter,
      belowTaskId: number | undefined,
      limit: number,
      scanLines: number,
    ): Promise<{ ids: number[]; scanFloor: number | undefined }> {
      const matches = () => selectLogMatches(dialect, phrase, { belowTaskId }, scanLines).as('m');
      let query = db
        .selectFrom(matches())
        .innerJoin('task', 'task.id', 'm.task_id')
        .select('m.task_id')
        .distinct()
        .where('task.project_id', '=', projectId);
      if (filter.templateId !== undefined) query = query.where('task.template_id', '=', filter.templateId);
      if (filter.status !== undefined) query = query.where('task.status', '=', filter.status);
      if (filter.userId !== undefined) query = query.where('task.user_id', '=', filter.userId);
      if (filter.createdFrom !== undefined) query = query.where('task.created', '>=', filter.createdFrom);
      if (filter.createdBefore !== undefined) query = query.where('task.created', '<', filter.createdBefore);
      const rows = await query.orderBy('m.task_id', 'desc').limit(limit).execute();
      const ids = rows.map((row) => Number(row.task_id));
      if (ids.length >= limit) return { ids, scanFloor: undefined };
      const scanned = await db
        .selectFrom(matches())
        .select((eb) => [eb.fn.countAll<number>().as('lines'), eb.fn.min('m.task_id').as('low')])
        .executeTakeFirstOrThrow();
      return { ids, scanFloor: Number(scanned.lines) >= scanLines ? Number(scanned.low) : undefined };
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

    listTasks(projectId: number, ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('task')
        .innerJoin('template', 'template.id', 'task.template_id')
        .leftJoin('users', 'users.id', 'task.user_id')
        .select([
          'task.id',
          'task.template_id',
          'template.name as template_name',
          'task.status',
          'task.user_id',
          'users.name as user_name',
          'task.created',
          'task.end',
        ])
        .where('task.project_id', '=', projectId)
        .where('task.id', 'in', ids)
        .execute();
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
