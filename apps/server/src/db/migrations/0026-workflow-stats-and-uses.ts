import { sql } from 'kysely';
import { defineMigration, integer, references, varchar } from '../schema.ts';

/** The statuses a run ends in when this migration was written (a migration never follows later changes). */
const ENDED = ['success', 'failed', 'stopped'];

export const workflowStatsAndUses = defineMigration('0026-workflow-stats-and-uses', async (db, h) => {
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

  // The inventories and variable groups that the steps of each workflow's revision in force name, as
  // workflow_template holds its templates: what their references list, so they cannot be deleted meanwhile.
  await h.createTable('workflow_resource', {
    workflow_id: references('workflow', 'cascade'),
    project_id: references('project', 'cascade'),
    kind: varchar(16),
    resource_id: integer(),
  });
  await h.createUniqueIndexes('workflow_resource', { workflow_resource_key: ['kind', 'resource_id', 'workflow_id'] });
  await h.createIndexes('workflow_resource', { workflow_resource_workflow_idx: ['workflow_id'] });

  const { rows } = await sql<{ workflow_id: number; project_id: number; definition: string }>`
    select workflow.id as workflow_id, workflow.project_id, workflow_revision.definition from workflow
    join workflow_revision on workflow_revision.workflow_id = workflow.id and workflow_revision.number = workflow.revision`.execute(
    db,
  );
  for (const row of rows) {
    const { steps } = JSON.parse(row.definition) as {
      steps: { inventory_id?: number | null; environment_id?: number | null }[];
    };
    for (const [kind, ids] of [
      ['inventory', new Set(steps.map((step) => step.inventory_id))],
      ['environment', new Set(steps.map((step) => step.environment_id))],
    ] as const)
      for (const id of ids)
        if (typeof id === 'number')
          await sql`insert into workflow_resource (workflow_id, project_id, kind, resource_id)
            values (${row.workflow_id}, ${row.project_id}, ${kind}, ${id})`.execute(db);
  }
});
