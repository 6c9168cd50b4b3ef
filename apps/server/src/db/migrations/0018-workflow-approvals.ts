import { defineMigration, nullable, references, time, varchar } from '../schema.ts';

export const workflowApprovals = defineMigration('0018-workflow-approvals', async (_db, h) => {
  // Each approver's decision on an approval step of a run, with the reason they gave.
  await h.createTable('workflow_approval', {
    run_id: references('workflow_run', 'cascade'),
    project_id: references('project', 'cascade'),
    step_key: varchar(64),
    // Kept (as null) when the user is deleted; the username says who it was.
    user_id: nullable(references('users', 'set null')),
    username: varchar(255),
    decision: varchar(16),
    reason: varchar(1024),
    created: time,
  });
  // One decision per user and step, whichever engine or request records it.
  await h.createUniqueIndexes('workflow_approval', { workflow_approval_user: ['run_id', 'step_key', 'user_id'] });
});
