import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import { fitsOneStatement, insertTaskOutputRows, storeCountedLines } from '../../db/task-output-insert.ts';
import type { LogLine } from '../../live/live-hub.ts';
import type { TaskOutputRow, TaskRow } from './tasks.table.ts';

/** What a conditional append (`appendIf`) reads of the task's row, under its lock, to decide. */
export type LockedTaskState = Pick<TaskRow, 'status' | 'runner_id' | 'sent_to_runner'>;

/** A line to store, numbered by the repository. */
export interface OutputRecord {
  time: string;
  output: string;
}

/**
 * The one owner of task output and its sequence numbers: `task.output_lines` is the number of lines
 * stored and so the next line's number. Two ways in: `append` numbers lines from the stored count
 * (reports of runners, single lines of the engine), `storeNumbered` takes the lines the open log of a
 * task running here numbered itself, starting from the count it read when it opened (the one writer
 * of that task while it runs, so it need not read the count again for every batch).
 */
/** The text of a task's lines `from <= seq < to`, in order; `db` may be a transaction. */
export function listLineText(
  db: Db,
  taskId: number,
  from: number,
  to: number,
): Promise<{ seq: number; output: string }[]> {
  return db
    .selectFrom('task_output')
    .select(['seq', 'output'])
    .where('task_id', '=', taskId)
    .where('seq', '>=', from)
    .where('seq', '<', to)
    .orderBy('seq')
    .execute();
}

/**
 * Appends lines to a task whose row the caller's transaction `trx` holds locked, so that nobody else
 * numbers lines meanwhile (`outputLines` is the count it read under that lock), and sets `changes` on
 * the row with the new count: a status change and the lines saying why land together or not at all.
 */
export async function appendToLockedTask(
  trx: Db,
  dialect: Dialect,
  task: { id: number; outputLines: number },
  records: readonly OutputRecord[],
  changes: Partial<Omit<TaskRow, 'id'>> = {},
): Promise<LogLine[]> {
  const stored = records.map((r, i) => ({ seq: task.outputLines + i, time: r.time, output: r.output }));
  await trx
    .updateTable('task')
    .set({ ...changes, output_lines: task.outputLines + stored.length })
    .where('id', '=', task.id)
    .execute();
  await insertTaskOutputRows(
    trx,
    dialect,
    stored.map((line) => ({ task_id: task.id, ...line })),
  );
  return stored;
}

export function createTaskOutputRepository(db: Db, dialect: Dialect) {
  return {
    /**
     * Appends lines with the next sequence numbers. With `runnerIndex` (a runner's own number of the
     * first record) records already stored are skipped, so a resent batch is stored once; a batch that
     * starts past what is stored stores nothing (the runner resends). Guarded by the line count, so two
     * writers never give out the same number.
     */
    async append(
      taskId: number,
      records: readonly OutputRecord[],
      runnerIndex: number | null = null,
    ): Promise<{ stored: LogLine[]; runnerLogOffset: number } | undefined> {
      for (let attempt = 0; attempt < 20; attempt++) {
        const result = await db.transaction().execute(async (trx) => {
          const task = await trx
            .selectFrom('task')
            .select(['output_lines', 'runner_log_offset'])
            .where('id', '=', taskId)
            .executeTakeFirst();
          if (!task) return undefined;
          let fresh = records;
          if (runnerIndex !== null) {
            const skip = task.runner_log_offset - runnerIndex;
            fresh = skip < 0 ? [] : records.slice(skip);
          }
          if (fresh.length === 0) return { stored: [], runnerLogOffset: task.runner_log_offset };
          const stored = fresh.map((r, i) => ({ seq: task.output_lines + i, time: r.time, output: r.output }));
          const runnerLogOffset = task.runner_log_offset + (runnerIndex !== null ? stored.length : 0);
          const updated = await tryUpdate(
            trx
              .updateTable('task')
              .set({ output_lines: task.output_lines + stored.length, runner_log_offset: runnerLogOffset })
              .where('id', '=', taskId)
              .where('output_lines', '=', task.output_lines),
          );
          if (!updated) return 'retry' as const;
          await insertTaskOutputRows(
            trx,
            dialect,
            stored.map((l) => ({ task_id: taskId, ...l })),
          );
          return { stored, runnerLogOffset };
        });
        if (result !== 'retry') return result;
      }
      throw new Error(`Could not append to the log of task ${taskId}: too many concurrent writers`);
    },

    /**
     * Stores lines and `changes` to the task's row together, under a lock of the row, if `admits` the
     * row as it is then; undefined when it does not (a report, another node or the task's deletion came
     * first). What several nodes may each decide about one task is so done once, with its lines once.
     */
    appendIf(
      taskId: number,
      admits: (task: LockedTaskState) => boolean,
      records: readonly OutputRecord[],
      changes: Partial<Omit<TaskRow, 'id'>>,
    ): Promise<LogLine[] | undefined> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const task = await lockForUpdate(
            trx
              .selectFrom('task')
              .select(['status', 'runner_id', 'sent_to_runner', 'output_lines'])
              .where('id', '=', taskId),
            dialect,
          ).executeTakeFirst();
          if (!task || !admits(task)) return undefined;
          return appendToLockedTask(
            trx,
            dialect,
            { id: taskId, outputLines: Number(task.output_lines) },
            records,
            changes,
          );
        }),
      );
    },

    /** Stores lines numbered by the task's open log; `nextSeq` follows the last of them. */
    async storeNumbered(rows: TaskOutputRow[], taskId: number, nextSeq: number): Promise<void> {
      if (dialect === 'postgres' && fitsOneStatement(rows)) return storeCountedLines(db, taskId, rows, nextSeq);
      await db.transaction().execute(async (trx) => {
        // The task row first: on MySQL, inserting lines share-locks it (foreign key) and a later update
        // would have to upgrade that lock, deadlocking with a concurrent status change. Locking the row
        // also orders this against the task's deletion: a task already gone gets no lines (PostgreSQL has
        // no foreign key to refuse them), one deleted later takes these lines with it.
        const updated = await tryUpdate(
          trx.updateTable('task').set({ output_lines: nextSeq }).where('id', '=', taskId),
        );
        if (!updated) return;
        await insertTaskOutputRows(trx, dialect, rows);
      });
    },

    list(taskId: number, offset: number, limit: number | undefined): Promise<TaskOutputRow[]> {
      let query = db
        .selectFrom('task_output')
        .selectAll()
        .where('task_id', '=', taskId)
        .where('seq', '>=', offset)
        .orderBy('seq');
      if (limit !== undefined) query = query.where('seq', '<', offset + limit);
      return query.execute();
    },

    /**
     * The text of a task's lines after a seq, for searching: at most `lines` lines and `chars`
     * characters in all (bytes on MariaDB; but always the first line, however long). The lengths are read first, so
     * lines past the bound are never loaded.
     */
    async listText(
      taskId: number,
      afterSeq: number,
      { lines, chars }: { lines: number; chars: number },
    ): Promise<{ seq: number; output: string }[]> {
      const sizes = await db
        .selectFrom('task_output')
        .select(['seq', sql<number | string>`length(output)`.as('size')])
        .where('task_id', '=', taskId)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(lines)
        .execute();
      let total = 0;
      let lastSeq: number | undefined;
      for (const { seq, size } of sizes) {
        total += Number(size);
        if (lastSeq !== undefined && total > chars) break;
        lastSeq = seq;
      }
      if (lastSeq === undefined) return [];
      return listLineText(db, taskId, afterSeq + 1, lastSeq + 1);
    },
  };
}

export type TaskOutputRepository = ReturnType<typeof createTaskOutputRepository>;
