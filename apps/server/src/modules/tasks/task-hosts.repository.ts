import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { retryOnConflict } from '../../db/errors.ts';
import type { TaskHostResultTable, TaskHostTable } from './tasks.table.ts';

/** Rows per insert: 8 values a row stays under every dialect's limit of bound parameters (SQLite's 32,766). */
const ROWS_PER_INSERT = 500;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) out.push(rows.slice(i, i + ROWS_PER_INSERT));
  return out;
}

/** The hosts of ansible tasks and their task results; rows go with their task (foreign key cascade). */
export function createTaskHostsRepository(db: Db) {
  return {
    /** Replaces what is stored for a task in one transaction: a resent runner report stores it once. */
    async replace(
      taskId: number,
      hosts: Insertable<TaskHostTable>[],
      results: Insertable<TaskHostResultTable>[],
      recap: string,
    ): Promise<void> {
      await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await trx.deleteFrom('task_host_result').where('task_id', '=', taskId).execute();
          await trx.deleteFrom('task_host').where('task_id', '=', taskId).execute();
          for (const chunk of chunks(hosts)) await trx.insertInto('task_host').values(chunk).execute();
          for (const chunk of chunks(results)) await trx.insertInto('task_host_result').values(chunk).execute();
          await trx.updateTable('task').set({ host_recap: recap }).where('id', '=', taskId).execute();
        }),
      );
    },
    listHosts(taskId: number) {
      return db.selectFrom('task_host').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
    },
    listResults(taskId: number) {
      return db.selectFrom('task_host_result').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
    },
    /** Hosts of a task with a failed or unreachable result, in the order ansible met them. */
    async listFailedHosts(taskId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('task_host')
        .select('host')
        .where('task_id', '=', taskId)
        .where((eb) => eb.or([eb('failed', '>', 0), eb('unreachable', '>', 0)]))
        .orderBy('id')
        .execute();
      return rows.map((row) => row.host);
    },
  };
}

export type TaskHostsRepository = ReturnType<typeof createTaskHostsRepository>;
