import { defineMigration, nullable, time } from '../schema.ts';

export const approvalAlerts = defineMigration('0025-approval-alerts', async (_db, h) => {
  // The alert that a task or a workflow approval step waits for approval is owed from this time until it is
  // sent (then null): set in the write that makes it wait, moved ahead while a node sends it, so an alert a
  // crash cut off is sent by the next sweep of any node (docs/workflows.md, "Approval alerts survive a crash").
  await h.addColumns('task', { approval_alert: nullable(time) });
  await h.addColumns('workflow_step_run', { approval_alert: nullable(time) });
  await h.createIndexes('task', { task_approval_alert_idx: ['approval_alert'] });
  await h.createIndexes('workflow_step_run', { workflow_step_run_approval_alert_idx: ['approval_alert'] });
});
