import { defineMigration, integer, nullable, references, text, varchar } from '../schema.ts';

export const taskOutputs = defineMigration('0021-task-outputs', async (_db, h) => {
  // The named values a task published (its outputs file, ansible's set_stats, terraform outputs),
  // secrets masked, written once when the task ends and deleted with it.
  await h.createTable('task_output_value', {
    task_id: references('task', 'cascade'),
    name: varchar(64),
    value: text,
  });
  await h.createIndexes('task_output_value', { task_output_value_task_idx: ['task_id'] });
  // A workflow run keeps its steps' outputs (JSON) itself: retention may delete the tasks before the run.
  await h.addColumns('workflow_step_run', { outputs: nullable(text) });
  // The variable group a task runs with instead of its template's (a workflow step's environment_id).
  await h.addColumns('task', { environment_id: nullable(integer()) });
});
