import { sql } from 'kysely';
import type { GantryMigration } from '../schema.ts';

/** The statuses a task ends in when this migration was written (a migration never follows later changes). */
const FINISHED = ['success', 'error', 'stopped', 'rejected'];

export const taskStats: GantryMigration = {
  name: '0013-task-stats',
  async up(db, h) {
    // Finished tasks counted per template, day of creation, user and status, kept as tasks finish
    // and are deleted, so the stats of a year read a few hundred rows instead of every task.
    // user_id 0 holds the count over all users (tasks without a user count only there).
    await h
      .finish(
        h
          .withId(db.schema.createTable('task_stat_day'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
          .addColumn('created_day', 'varchar(10)', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull())
          .addColumn('status', 'varchar(32)', (c) => c.notNull())
          .addColumn('task_count', 'integer', (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('task_stat_day_key')
      .on('task_stat_day')
      .columns(['template_id', 'user_id', 'created_day', 'status'])
      .unique()
      .execute();
    await db.schema.createIndex('task_stat_day_project_idx').on('task_stat_day').column('project_id').execute();

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
  },
};
