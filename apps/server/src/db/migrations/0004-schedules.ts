import type { ColumnDefinitionBuilder } from 'kysely';
import type { GantryMigration } from '../schema.ts';

export const schedules: GantryMigration = {
  name: '0004-schedules',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('schedule'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('cron_format', 'varchar(255)', (c) => c.notNull())
          .addColumn('active', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(1))
          .addColumn('repository_id', 'integer', (c) => c.references('repository.id'))
          .addColumn('last_commit_hash', 'varchar(64)')
          // The due time that has not fired yet; claiming it is what makes each run happen exactly once.
          .addColumn('next_run', 'varchar(40)')
          .addColumn('task_params', h.longText, (c) => c.notNull())
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('schedule_next_run_idx').on('schedule').columns(['active', 'next_run']).execute();
    await db.schema.createIndex('schedule_template_idx').on('schedule').column('template_id').execute();
  },
};
