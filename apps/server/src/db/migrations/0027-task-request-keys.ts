import { defineMigration, nullable, varchar } from '../schema.ts';

export const taskRequestKeys = defineMigration('0027-task-request-keys', async (_db, h) => {
  // The hash of the Idempotency-Key (or webhook delivery id) a task was asked for with, scoped to its
  // caller: a retried request finds its task instead of making a second one (docs/scale-out.md).
  await h.addColumns('task', { request_key: nullable(varchar(64)) });
  await h.createUniqueIndexes('task', { task_request_key: ['project_id', 'request_key'] });
});
