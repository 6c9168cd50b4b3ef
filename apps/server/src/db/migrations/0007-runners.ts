import { defineMigration, integer, nullable, references, time, unique, varchar } from '../schema.ts';

export const runners = defineMigration('0007-runners', async (_db, h) => {
  await h.createTable('runner', {
    // Null for a global runner; a project runner takes only its project's tasks.
    project_id: nullable(references('project', 'cascade')),
    name: varchar(255),
    webhook: varchar(1024, ''),
    max_parallel_tasks: integer(0),
    active: integer(1),
    // SHA-256 of the runner's token: the token itself is shown once and never stored.
    token_hash: unique(varchar(64)),
    // Last time the runner called the server: its heartbeat.
    touched: nullable(time),
    // When the runner's current process started, to notice a runner that restarted mid-task.
    started_at: nullable(time),
    created: time,
  });
  await h.createIndexes('runner', { runner_project_idx: ['project_id'] });
  // How many lines of the task's runner-side log the server has stored: makes resent batches harmless.
  await h.addColumns('task', { runner_log_offset: integer(0) });
  await h.createIndexes('task', { task_runner_idx: ['runner_id', 'status'] });
});
