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
    /**
     * For every host of the project's ansible tasks, the newest task of each template that ran on it, in host
     * order, at most `limit` rows. Walks the project's tasks by index (task_project_idx) and their hosts
     * (task_host_task_host_idx); nothing reads another project's rows.
     */
    listLastRuns(projectId: number, limit: number) {
      const last = db
        .selectFrom('task_host')
        .innerJoin('task', 'task.id', 'task_host.task_id')
        .select((eb) => ['task_host.host', 'task.template_id', eb.fn.max('task.id').as('task_id')])
        .where('task.project_id', '=', projectId)
        .groupBy(['task_host.host', 'task.template_id']);
      return db
        .selectFrom(last.as('last'))
        .innerJoin('task_host', (join) =>
          join.onRef('task_host.task_id', '=', 'last.task_id').onRef('task_host.host', '=', 'last.host'),
        )
        .innerJoin('task', 'task.id', 'last.task_id')
        .innerJoin('template', 'template.id', 'task.template_id')
        .select([
          'last.host',
          'task.template_id',
          'template.name as template_name',
          'task.id as task_id',
          'task.status',
          'task.created',
          'task.start',
          'task.end',
          'task_host.failed',
          'task_host.unreachable',
        ])
        .where('task.project_id', '=', projectId)
        .orderBy('last.host')
        .orderBy('template.name')
        .orderBy('task.template_id')
        .limit(limit)
        .execute();
    },
    /** Hosts with a failed or unreachable result in the project's tasks queued since `since`, most tasks first. */
    listFailing(projectId: number, since: string, limit: number) {
      return db
        .selectFrom('task')
        .innerJoin('task_host', 'task_host.task_id', 'task.id')
        .select((eb) => ['task_host.host', eb.fn.countAll().as('failures'), eb.fn.max('task.id').as('last_task_id')])
        .where('task.project_id', '=', projectId)
        .where('task.created', '>=', since)
        .where((eb) => eb.or([eb('task_host.failed', '>', 0), eb('task_host.unreachable', '>', 0)]))
        .groupBy('task_host.host')
        .orderBy('failures', 'desc')
        .orderBy('task_host.host')
        .limit(limit)
        .execute();
    },
    listTaskTimes(projectId: number, ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('task')
        .select(['id', 'created', 'start', 'end'])
        .where('project_id', '=', projectId)
        .where('id', 'in', ids)
        .execute();
    },
  };
}

export type TaskHostsRepository = ReturnType<typeof createTaskHostsRepository>;
