import type { GantryMigration } from '../schema.ts';

export const approvalAlerts: GantryMigration = {
  name: '0025-approval-alerts',
  async up(db) {
    // The alert that a task or a workflow approval step waits for approval is owed from this time until it is
    // sent (then null): set in the write that makes it wait, moved ahead while a node sends it, so an alert a
    // crash cut off is sent by the next sweep of any node (docs/workflows.md, "Approval alerts").
    await db.schema.alterTable('task').addColumn('approval_alert', 'varchar(40)').execute();
    await db.schema.alterTable('workflow_step_run').addColumn('approval_alert', 'varchar(40)').execute();
    await db.schema.createIndex('task_approval_alert_idx').on('task').column('approval_alert').execute();
    await db.schema
      .createIndex('workflow_step_run_approval_alert_idx')
      .on('workflow_step_run')
      .column('approval_alert')
      .execute();
  },
};
