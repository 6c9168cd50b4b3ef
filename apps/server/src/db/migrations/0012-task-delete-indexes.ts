import { defineMigration } from '../schema.ts';

export const taskDeleteIndexes = defineMigration('0012-task-delete-indexes', async (_db, h) => {
  // Retention asks which of a page of tasks a deploy names as its build; deleting tasks makes the
  // store look up the Terraform rows that point at each one.
  await h.createIndexes('task', { task_build_idx: ['build_task_id'] });
  await h.createIndexes('terraform_alias', { terraform_alias_task_idx: ['task_id'] });
  await h.createIndexes('terraform_state', { terraform_state_task_idx: ['task_id'] });
});
