import { defineMigration, integer, longText, nullable, references, time, varchar } from '../schema.ts';

export const schedules = defineMigration('0004-schedules', async (_db, h) => {
  await h.createTable('schedule', {
    project_id: references('project', 'cascade'),
    template_id: references('template', 'cascade'),
    name: varchar(255),
    cron_format: varchar(255),
    active: integer(1),
    repository_id: nullable(references('repository')),
    last_commit_hash: nullable(varchar(64)),
    // The due time that has not fired yet; claiming it is what makes each run happen exactly once.
    next_run: nullable(time),
    task_params: longText,
    created: time,
  });
  await h.createIndexes('schedule', {
    schedule_next_run_idx: ['active', 'next_run'],
    schedule_template_idx: ['template_id'],
  });
});
