import type { GantryMigration } from '../schema.ts';

export const hostHistory: GantryMigration = {
  name: '0019-host-history',
  async up(db) {
    // The failing hosts of a project read its tasks of the last days: a range of this index, not its whole history.
    await db.schema.createIndex('task_project_created_idx').on('task').columns(['project_id', 'created']).execute();
    // The newest task per host and template reads the project's tasks from this index alone, never their rows.
    await db.schema
      .createIndex('task_project_template_idx')
      .on('task')
      .columns(['project_id', 'template_id', 'id'])
      .execute();
    // The host history finds one host's row of a task: a seek, not a walk through every host of that task.
    await db.schema.createIndex('task_host_task_host_idx').on('task_host').columns(['task_id', 'host']).execute();
  },
};
