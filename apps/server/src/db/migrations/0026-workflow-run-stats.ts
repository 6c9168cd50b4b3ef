import { sql } from 'kysely';
import { defineMigration, integer, references, varchar } from '../schema.ts';

/** The statuses a run ends in when this migration was written (a migration never follows later changes). */
const ENDED = ['success', 'failed', 'stopped'];

export const workflowRunStats = defineMigration('0026-workflow-run-stats', async (db, h) => {
  // Ended runs counted per workflow, day of their start and status, kept as runs end, so a workflow's
  // stats over a year read a few hundred rows whatever the number of runs (as task_stat_day for tasks).
  await h.createTable('workflow_run_stat_day', {
    project_id: references('project', 'cascade'),
    workflow_id: references('workflow', 'cascade'),
    start_day: varchar(10),
    status: varchar(32),
    run_count: integer(),
  });
  await h.createUniqueIndexes('workflow_run_stat_day', {
    workflow_run_stat_day_key: ['workflow_id', 'start_day', 'status'],
  });
  await h.createIndexes('workflow_run_stat_day', { workflow_run_stat_day_project_idx: ['project_id'] });

  const day = sql`substr(start, 1, 10)`;
  await sql`insert into workflow_run_stat_day (project_id, workflow_id, start_day, status, run_count)
      select project_id, workflow_id, ${day}, status, count(*) from workflow_run
      where status in (${sql.join(ENDED)}) group by project_id, workflow_id, ${day}, status`.execute(db);
});
