import type { GantryMigration } from '../schema.ts';

export const taskOutputs: GantryMigration = {
  name: '0021-task-outputs',
  async up(db, h) {
    // The named values a task published (its outputs file, ansible's set_stats, terraform outputs),
    // secrets masked, written once when the task ends and deleted with it.
    await h
      .finish(
        h
          .withId(db.schema.createTable('task_output_value'))
          .addColumn('task_id', 'integer', (c) => c.notNull().references('task.id').onDelete('cascade'))
          .addColumn('name', 'varchar(64)', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull()),
      )
      .execute();
    await db.schema.createIndex('task_output_value_task_idx').on('task_output_value').column('task_id').execute();
    // A workflow run keeps its steps' outputs (JSON) itself: retention may delete the tasks before the run.
    await db.schema.alterTable('workflow_step_run').addColumn('outputs', 'text').execute();
    // The variable group a task runs with instead of its template's (a workflow step's environment_id).
    await db.schema.alterTable('task').addColumn('environment_id', 'integer').execute();
  },
};
