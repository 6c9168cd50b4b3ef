import { sql, type Insertable, type Kysely } from 'kysely';
import type { TaskStatDayTable } from '../modules/tasks/tasks.table.ts';
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
