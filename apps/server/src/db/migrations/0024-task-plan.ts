import { defineMigration, integer, longText, nullable, primaryKey, references, varchar } from '../schema.ts';

export const taskPlan = defineMigration('0024-task-plan', async (_db, h) => {
  // What a terraform/OpenTofu task's plan changes (docs/task-log.md): the resources as JSON, one row a
  // task, read only by the task's own view; the counts on the task row, for the lists.
  await h.createTable('task_plan', {
    task_id: primaryKey(references('task', 'cascade')),
    resources: longText,
    truncated: integer(),
  });
  // JSON of the counts ({"add":1,"change":2,"destroy":0}).
  await h.addColumns('task', { plan_recap: nullable(varchar(255)) });
});
