import { sql } from 'kysely';
import { defineMigration, integer, references, varchar } from '../schema.ts';

/** The statuses a task ends in when this migration was written (a migration never follows later changes). */
const FINISHED = ['success', 'error', 'stopped', 'rejected'];

export const taskStats = defineMigration('0013-task-stats', async (db, h) => {
  // Finished tasks counted per template, day of creation, user and status, kept as tasks finish
  // and are deleted, so the stats of a year read a few hundred rows instead of every task.
  // user_id 0 holds the count over all users (tasks without a user count only there).
  await h.createTable('task_stat_day', {
    project_id: references('project', 'cascade'),
    template_id: references('template', 'cascade'),
    created_day: varchar(10),
    user_id: integer(),
    status: varchar(32),
    task_count: integer(),
  });
  await h.createUniqueIndexes('task_stat_day', {
    task_stat_day_key: ['template_id', 'user_id', 'created_day', 'status'],
  });
  await h.createIndexes('task_stat_day', { task_stat_day_project_idx: ['project_id'] });

  const day = sql`substr(created, 1, 10)`;
  const finished = sql.join(FINISHED);
  await sql`insert into task_stat_day (project_id, template_id, created_day, user_id, status, task_count)
      select project_id, template_id, ${day}, 0, status, count(*) from task
      where status in (${finished}) group by project_id, template_id, ${day}, status`.execute(db);
  await sql`insert into task_stat_day (project_id, template_id, created_day, user_id, status, task_count)
      select project_id, template_id, ${day}, user_id, status, count(*) from task
      where status in (${finished}) and user_id is not null group by project_id, template_id, ${day}, user_id, status`.execute(
    db,
  );
});
