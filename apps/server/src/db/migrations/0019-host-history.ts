import { defineMigration } from '../schema.ts';

export const hostHistory = defineMigration('0019-host-history', async (_db, h) => {
  await h.createIndexes('task', {
    // The failing hosts of a project read its tasks of the last days: a range of this index, not its whole history.
    task_project_created_idx: ['project_id', 'created'],
    // The newest task per host and template reads the project's tasks from this index alone, never their rows.
    task_project_template_idx: ['project_id', 'template_id', 'id'],
  });
  // The host history finds one host's row of a task: a seek, not a walk through every host of that task.
  await h.createIndexes('task_host', { task_host_task_host_idx: ['task_id', 'host'] });
});
