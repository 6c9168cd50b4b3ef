import type { ColumnDefinitionBuilder } from 'kysely';
import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';

export const runners: GantryMigration = {
  name: '0007-runners',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('runner'))
          // Null for a global runner; a project runner takes only its project's tasks.
          .addColumn('project_id', 'integer', (c) => c.references('project.id').onDelete('cascade'))
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn('webhook', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
          .addColumn('max_parallel_tasks', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0))
          .addColumn('active', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(1))
          // SHA-256 of the runner's token: the token itself is shown once and never stored.
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          // Last time the runner called the server: its heartbeat.
          .addColumn('touched', time)
          // When the runner's current process started, to notice a runner that restarted mid-task.
          .addColumn('started_at', time)
          .addColumn('created', time, (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('runner_project_idx').on('runner').column('project_id').execute();
    // How many lines of the task's runner-side log the server has stored: makes resent batches harmless.
    await db.schema
      .alterTable('task')
      .addColumn('runner_log_offset', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('task_runner_idx').on('task').columns(['runner_id', 'status']).execute();
  },
};
