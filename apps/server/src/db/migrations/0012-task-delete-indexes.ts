import type { GantryMigration } from '../schema.ts';

export const taskDeleteIndexes: GantryMigration = {
  name: '0012-task-delete-indexes',
  async up(db) {
    // Retention asks which of a page of tasks a deploy names as its build; deleting tasks makes the
    // store look up the Terraform rows that point at each one.
    await db.schema.createIndex('task_build_idx').on('task').column('build_task_id').execute();
    await db.schema.createIndex('terraform_alias_task_idx').on('terraform_alias').column('task_id').execute();
    await db.schema.createIndex('terraform_state_task_idx').on('terraform_state').column('task_id').execute();
  },
};
