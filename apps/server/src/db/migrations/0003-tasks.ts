import type { ColumnDefinitionBuilder } from 'kysely';
import type { GantryMigration } from '../schema.ts';

const time = 'varchar(40)';

export const tasks: GantryMigration = {
  name: '0003-tasks',
  async up(db, h) {
    await h
      .finish(
        h
          .withId(db.schema.createTable('task'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
          .addColumn('status', 'varchar(32)', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('integration_id', 'integer')
          .addColumn('schedule_id', 'integer')
          .addColumn('message', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
          .addColumn('commit_hash', 'varchar(64)')
          .addColumn('commit_message', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .addColumn('build_task_id', 'integer')
          .addColumn('version', 'varchar(255)')
          .addColumn('created', time, (c) => c.notNull())
          .addColumn('start', time)
          .addColumn('end', time)
          .addColumn('environment', h.longText, (c) => c.notNull())
          // Secret survey answers, encrypted, kept only until the task starts.
          .addColumn('secret', h.longText)
          .addColumn('arguments', h.longText)
          .addColumn('git_branch', 'varchar(255)')
          .addColumn('inventory_id', 'integer')
          .addColumn('params', h.longText, (c) => c.notNull())
          .addColumn('playbook', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
          .addColumn('runner_id', 'integer')
          // Process group of the task's current process, to stop it if the server dies.
          .addColumn('pid', 'integer')
          .addColumn('output_lines', 'integer', (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0)),
      )
      .execute();
    await db.schema.createIndex('task_project_idx').on('task').columns(['project_id', 'id']).execute();
    await db.schema.createIndex('task_template_idx').on('task').columns(['template_id', 'id']).execute();
    await db.schema.createIndex('task_status_idx').on('task').columns(['status', 'id']).execute();

    await h
      .finish(
        h
          .withId(db.schema.createTable('task_output'))
          .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
          .addColumn('seq', 'integer', (c) => c.notNull())
          .addColumn('time', time, (c) => c.notNull())
          .addColumn('output', h.longText, (c) => c.notNull()),
      )
      .execute();
    await db.schema
      .createIndex('task_output_task_seq_idx')
      .on('task_output')
      .columns(['task_id', 'seq'])
      .unique()
      .execute();
  },
};
