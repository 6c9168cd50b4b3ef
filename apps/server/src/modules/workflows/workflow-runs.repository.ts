import type { Updateable } from 'kysely';
import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { WorkflowRunRow, WorkflowStepRunRow, WorkflowStepRunTable } from './workflows.table.ts';

const RUNS_LISTED = 200;

type NewStep = Pick<WorkflowStepRunRow, 'step_key' | 'kind'>;

/**
 * The store of workflow runs. Every change of a step is conditional on the status it is seen in, so
 * two engines (a restarted node, two nodes of a cluster) never move a step twice.
 */
export function createWorkflowRunsRepository(db: Db, dialect: Dialect) {
  return {
    /** The run and one pending row per step, all or nothing. */
    insert(run: Omit<WorkflowRunRow, 'id'>, steps: NewStep[]): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const id = await insertRow(trx, dialect, 'workflow_run', run);
        for (const step of steps)
          await insertRow(trx, dialect, 'workflow_step_run', {
            ...step,
            run_id: id,
            project_id: run.project_id,
            status: 'pending',
            task_id: null,
            due: null,
            message: '',
            start: null,
            end: null,
          });
        return id;
      });
    },
    find(projectId: number, workflowId: number, id: number): Promise<WorkflowRunRow | undefined> {
      return db
        .selectFrom('workflow_run')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('workflow_id', '=', workflowId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findById(id: number): Promise<WorkflowRunRow | undefined> {
      return db.selectFrom('workflow_run').selectAll().where('id', '=', id).executeTakeFirst();
    },
    list(projectId: number, workflowId: number): Promise<WorkflowRunRow[]> {
      return db
        .selectFrom('workflow_run')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('workflow_id', '=', workflowId)
        .orderBy('id', 'desc')
        .limit(RUNS_LISTED)
        .execute();
    },
    async listRunningIds(): Promise<number[]> {
      const rows = await db.selectFrom('workflow_run').select('id').where('status', '=', 'running').execute();
      return rows.map((r) => r.id);
    },
    listSteps(runId: number): Promise<WorkflowStepRunRow[]> {
      return db.selectFrom('workflow_step_run').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    },
    /** Moves a step on if it is still in one of `from`; false when another engine or a stop came first. */
    async moveStep(id: number, from: readonly string[], changes: Updateable<WorkflowStepRunTable>): Promise<boolean> {
      const result = await db
        .updateTable('workflow_step_run')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Stops every step of the run that has not ended. */
    async stopSteps(runId: number, from: readonly string[], end: string): Promise<void> {
      await db
        .updateTable('workflow_step_run')
        .set({ status: 'stopped', end })
        .where('run_id', '=', runId)
        .where('status', 'in', from)
        .execute();
    },
    /** Ends a running run; false when it had already ended. */
    async end(id: number, status: string, end: string, message = ''): Promise<boolean> {
      const result = await db
        .updateTable('workflow_run')
        .set({ status, end, message })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type WorkflowRunsRepository = ReturnType<typeof createWorkflowRunsRepository>;
