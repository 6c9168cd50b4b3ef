import { defineMigration, integer, nullable, references, text, varchar } from '../schema.ts';

export const taskHosts = defineMigration('0015-task-hosts', async (_db, h) => {
  // What an ansible task did per host: counts per status for every host, and the results of its
  // tasks up to a bound (the contract's HOST_LIMITS), written once when the task ends.
  await h.createTable('task_host', {
    task_id: references('task', 'cascade'),
    host: varchar(255),
    ok: integer(),
    changed: integer(),
    failed: integer(),
    unreachable: integer(),
    skipped: integer(),
    rescued: integer(),
    ignored: integer(),
  });
  await h.createIndexes('task_host', { task_host_task_idx: ['task_id'] });
  await h.createTable('task_host_result', {
    task_id: references('task', 'cascade'),
    host: varchar(255),
    play: varchar(255),
    task: varchar(255),
    status: varchar(16),
    duration_ms: integer(),
    message: text,
  });
  await h.createIndexes('task_host_result', { task_host_result_task_idx: ['task_id'] });
  await h.addColumns('task', {
    // JSON of the hosts per outcome ({"ok":12,"changed":3,"failed":1,"unreachable":0}), for the history.
    host_recap: nullable(varchar(255)),
    // The task whose failed hosts this one runs again; no foreign key, so retention may delete either first.
    rerun_of_task_id: nullable(integer()),
  });
});
