import type { GantryMigration } from '../schema.ts';

export const workflowApprovals: GantryMigration = {
  name: '0018-workflow-approvals',
  async up(db, h) {
    // Each approver's decision on an approval step of a run, with the reason they gave.
    await h
      .finish(
        h
          .withId(db.schema.createTable('workflow_approval'))
          .addColumn('run_id', 'integer', (c) => c.notNull().references('workflow_run.id').onDelete('cascade'))
          .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
          .addColumn('step_key', 'varchar(64)', (c) => c.notNull())
          // Kept (as null) when the user is deleted; the username says who it was.
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('username', 'varchar(255)', (c) => c.notNull())
          .addColumn('decision', 'varchar(16)', (c) => c.notNull())
          .addColumn('reason', 'varchar(1024)', (c) => c.notNull())
          .addColumn('created', 'varchar(40)', (c) => c.notNull()),
      )
      .execute();
    // One decision per user and step, whichever engine or request records it.
    await db.schema
      .createIndex('workflow_approval_user')
      .on('workflow_approval')
      .columns(['run_id', 'step_key', 'user_id'])
      .unique()
      .execute();
  },
};
