import { defineMigration, integer, longText, nullable, references, time, varchar } from '../schema.ts';

export const workflowRuns = defineMigration('0016-workflow-runs', async (_db, h) => {
  // One run of a workflow: the revision it follows, who started it and with which variables.
  await h.createTable('workflow_run', {
    project_id: references('project', 'cascade'),
    workflow_id: references('workflow', 'cascade'),
    revision: integer(),
    status: varchar(32),
    user_id: nullable(references('users', 'set null')),
    variables: longText,
    message: varchar(1024),
    start: time,
    end: nullable(time),
  });
  await h.createIndexes('workflow_run', {
    workflow_run_workflow_idx: ['workflow_id', 'id'],
    // The engine's sweep reads the runs still going.
    workflow_run_status_idx: ['status'],
  });

  // The state of each step of a run. task_id has no foreign key: retention may delete the task, the step keeps its number.
  await h.createTable('workflow_step_run', {
    run_id: references('workflow_run', 'cascade'),
    project_id: references('project', 'cascade'),
    step_key: varchar(64),
    kind: varchar(16),
    status: varchar(32),
    task_id: nullable(integer()),
    // When a wait ends or an approval times out.
    due: nullable(time),
    message: varchar(1024),
    start: nullable(time),
    end: nullable(time),
  });
  await h.createUniqueIndexes('workflow_step_run', { workflow_step_run_key: ['run_id', 'step_key'] });
});
