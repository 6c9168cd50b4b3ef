import type { GantryMigration } from '../schema.ts';

export const taskPlan: GantryMigration = {
  name: '0024-task-plan',
  async up(db, h) {
    // What a terraform/OpenTofu task's plan changes (docs/task-log.md): the resources as JSON, one row a
    // task, read only by the task's own view; the counts on the task row, for the lists.
    await h
      .finish(
        db.schema
          .createTable('task_plan')
          .addColumn('task_id', 'integer', (c) => c.primaryKey().references('task.id').onDelete('cascade'))
          .addColumn('resources', h.longText, (c) => c.notNull())
          .addColumn('truncated', 'integer', (c) => c.notNull()),
      )
      .execute();
    // JSON of the counts ({"add":1,"change":2,"destroy":0}).
    await db.schema.alterTable('task').addColumn('plan_recap', 'varchar(255)').execute();
  },
};
