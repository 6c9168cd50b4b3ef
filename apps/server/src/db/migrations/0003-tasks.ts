import { defineMigration, integer, longText, nullable, references, time, varchar } from '../schema.ts';

export const tasks = defineMigration('0003-tasks', async (_db, h) => {
  await h.createTable('task', {
    project_id: references('project', 'cascade'),
    template_id: references('template', 'cascade'),
    status: varchar(32),
    user_id: nullable(references('users', 'set null')),
    integration_id: nullable(integer()),
    schedule_id: nullable(integer()),
    message: varchar(1024, ''),
    commit_hash: nullable(varchar(64)),
    commit_message: varchar(255, ''),
    build_task_id: nullable(integer()),
    version: nullable(varchar(255)),
    created: time,
    start: nullable(time),
    end: nullable(time),
    environment: longText,
    // Secret survey answers, encrypted, kept only until the task starts.
    secret: nullable(longText),
    arguments: nullable(longText),
    git_branch: nullable(varchar(255)),
    inventory_id: nullable(integer()),
    params: longText,
    playbook: varchar(1024, ''),
    runner_id: nullable(integer()),
    // Process group of the task's current process, to stop it if the server dies.
    pid: nullable(integer()),
    output_lines: integer(0),
  });
  await h.createIndexes('task', {
    task_project_idx: ['project_id', 'id'],
    task_template_idx: ['template_id', 'id'],
    task_status_idx: ['status', 'id'],
  });

  await h.createTable('task_output', {
    task_id: references('task', 'cascade'),
    seq: integer(),
    time,
    output: longText,
  });
  await h.createUniqueIndexes('task_output', { task_output_task_seq_idx: ['task_id', 'seq'] });
});
