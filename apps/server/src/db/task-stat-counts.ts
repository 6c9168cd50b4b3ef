import { sql, type Insertable, type Kysely } from 'kysely';
import type { TaskStatDayTable } from '../modules/tasks/tasks.table.ts';
import type { WorkflowRunStatDayTable } from '../modules/workflows/workflows.table.ts';
import type { Database, Dialect } from './database.ts';

/**
 * Adds each row's task_count to the counter with the same key (template, user, day, status),
 * creating it when missing, in one statement. The rows must have distinct keys.
 */
export async function addTaskStatCounts(
  db: Kysely<Database>,
  dialect: Dialect,
  rows: Insertable<TaskStatDayTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  const insert = db.insertInto('task_stat_day').values(rows);
  if (dialect === 'mysql') {
    await insert.onDuplicateKeyUpdate({ task_count: sql`task_count + values(task_count)` }).execute();
    return;
  }
  await insert
    .onConflict((conflict) =>
      conflict
        .columns(['template_id', 'user_id', 'created_day', 'status'])
        .doUpdateSet({ task_count: sql`task_stat_day.task_count + excluded.task_count` }),
    )
    .execute();
}

/** Counts one more ended run under the counter with the row's key (workflow, day, status), creating it when missing. */
export async function addWorkflowRunStatCount(
  db: Kysely<Database>,
  dialect: Dialect,
  row: Omit<Insertable<WorkflowRunStatDayTable>, 'run_count'>,
): Promise<void> {
  const insert = db.insertInto('workflow_run_stat_day').values({ ...row, run_count: 1 });
  if (dialect === 'mysql') {
    await insert.onDuplicateKeyUpdate({ run_count: sql`run_count + 1` }).execute();
    return;
  }
  await insert
    .onConflict((conflict) =>
      conflict
        .columns(['workflow_id', 'start_day', 'status'])
        .doUpdateSet({ run_count: sql`workflow_run_stat_day.run_count + 1` }),
    )
    .execute();
}
