import { defineMigration, integer, nullable, references, text, time, varchar } from '../schema.ts';

export const templateRunSettings = defineMigration('0023-template-run-settings', async (_db, h) => {
  await h.addColumns('template', {
    // A template's approval gate as JSON (approvers, N, timeout, on-timeout); null runs its tasks at once.
    approval: nullable(text),
    // Retries of a failed task: how many (0 is off) and the pause before each.
    retries: integer(0),
    retry_delay_seconds: integer(0),
  });
  await h.addColumns('task', {
    // The template's gate as the task was created under it (a later change of the template does not move
    // the goalposts of a task already waiting), and when its on-timeout rule settles it.
    approval: nullable(text),
    approval_due: nullable(time),
    // The first task of a retry chain (no foreign key, so retention may delete either first) and this one's attempt.
    retry_of_task_id: nullable(integer()),
    retry_attempt: integer(0),
    // The retries the chain may take, as its template said when the first task was created.
    retry_limit: integer(0),
    // When a failed task's next retry is due; cleared once that retry exists.
    retry_due: nullable(time),
  });
  // One task per attempt of a chain, whichever node creates it.
  await h.createUniqueIndexes('task', { task_retry_attempt: ['retry_of_task_id', 'retry_attempt'] });
  await h.createIndexes('task', { task_retry_due_idx: ['retry_due'], task_approval_due_idx: ['approval_due'] });
  // Each approver's decision on a task that waits for approval, with the reason they gave.
  await h.createTable('task_approval', {
    task_id: references('task', 'cascade'),
    project_id: references('project', 'cascade'),
    // Kept (as null) when the user is deleted; the username says who it was.
    user_id: nullable(references('users', 'set null')),
    username: varchar(255),
    decision: varchar(16),
    reason: varchar(1024),
    created: time,
  });
  await h.createUniqueIndexes('task_approval', { task_approval_user: ['task_id', 'user_id'] });
});
