import { defineMigration, nullable, varchar } from '../schema.ts';

export const requestKeys = defineMigration('0027-request-keys', async (_db, h) => {
  // The hash of the Idempotency-Key (or webhook delivery id) a task or workflow run was asked for with,
  // scoped to its caller: a retried request finds what it made instead of making it again (docs/scale-out.md).
  await h.addColumns('task', { request_key: nullable(varchar(64)) });
  await h.createUniqueIndexes('task', { task_request_key: ['project_id', 'request_key'] });
  await h.addColumns('workflow_run', { request_key: nullable(varchar(64)) });
  await h.createUniqueIndexes('workflow_run', { workflow_run_request_key: ['project_id', 'request_key'] });
});
