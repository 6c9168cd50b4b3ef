import { sql, type Updateable } from 'kysely';
import type { WorkflowStepRunStatus } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import { projectRows } from '../../db/project-rows.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import { addWorkflowRunStatCount } from '../../db/task-stat-counts.ts';
import { readDayStatusCounts } from '../tasks/stats-days.ts';
import type {
  EndedWorkflowRunStatus,
  WorkflowApprovalRow,
  WorkflowRunRow,
  WorkflowStepRunRow,
  WorkflowStepRunTable,
} from './workflows.table.ts';

const RUNS_LISTED = 200;

/** A step of a new run: pending, or (in a retry) with the result it keeps from the retried run. */
export type NewStep = Pick<WorkflowStepRunRow, 'step_key' | 'kind'> &
  Partial<Pick<WorkflowStepRunRow, 'status' | 'task_id' | 'due' | 'message' | 'start' | 'end' | 'outputs'>>;
export type KeptDecision = Omit<WorkflowApprovalRow, 'id' | 'run_id'>;
type NewDecision = Omit<WorkflowApprovalRow, 'id' | 'user_id'> & { user_id: number };

/** Whether a decision was recorded, or why not. */
export type DecisionResult = 'recorded' | 'not_waiting' | 'duplicate';

/**
 * The store of workflow runs. Every change of a step is conditional on the status it is seen in, so
 * two engines (a restarted node, two nodes of a cluster) never move a step twice.
 */
export function createWorkflowRunsRepository(db: Db, dialect: Dialect) {
  const runs = projectRows(db, dialect, 'workflow_run');
  return {
    /**
     * The run and one row per step (pending unless given a kept result), all or nothing; a retry
     * also copies the decisions of the approval steps it keeps. Throws a unique violation when
     * the run it retries has been retried already.
     */
    insert(run: Omit<WorkflowRunRow, 'id'>, steps: NewStep[], keptDecisions: KeptDecision[] = []) {
      return db.transaction().execute(async (trx) => {
        const id = await insertRow(trx, dialect, 'workflow_run', run);
        for (const step of steps)
          await insertRow(trx, dialect, 'workflow_step_run', {
            status: 'pending',
            task_id: null,
            due: null,
            message: '',
            start: null,
            end: null,
            ...step,
            run_id: id,
            project_id: run.project_id,
          });
        for (const decision of keptDecisions)
          await insertRow(trx, dialect, 'workflow_approval', { ...decision, run_id: id });
        return id;
      });
    },
    /** The runs whose steps started these tasks of the project, oldest run first (a retry keeps its tasks). */
    listRunsOfTasks(projectId: number, taskIds: readonly number[]) {
      if (taskIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('workflow_step_run')
        .innerJoin('workflow_run', 'workflow_run.id', 'workflow_step_run.run_id')
        .select([
          'workflow_step_run.task_id',
          'workflow_step_run.step_key',
          'workflow_run.id as run_id',
          'workflow_run.workflow_id',
        ])
        .where('workflow_step_run.project_id', '=', projectId)
        .where('workflow_step_run.task_id', 'in', taskIds)
        .orderBy('workflow_run.id')
        .execute();
    },
    /** The run that retried this one, if any. */
    async findRetryOf(runId: number): Promise<number | null> {
      const row = await db.selectFrom('workflow_run').select('id').where('retry_of', '=', runId).executeTakeFirst();
      return row?.id ?? null;
    },
    /** A run of the project's workflow; undefined when it is another workflow's. */
    async find(projectId: number, workflowId: number, id: number): Promise<WorkflowRunRow | undefined> {
      const run = await runs.find(projectId, id);
      return run?.workflow_id === workflowId ? run : undefined;
    },
    findById(id: number): Promise<WorkflowRunRow | undefined> {
      return db.selectFrom('workflow_run').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The run a request with this key started in the project, if one did (see task-request-key.ts). */
    async findByRequestKey(projectId: number, requestKey: string): Promise<WorkflowRunRow | undefined> {
      return (await runs.listWhere(projectId, 'request_key', requestKey, { limit: 1 }))[0];
    },
    /** The workflow's latest runs, newest first. */
    list: (projectId: number, workflowId: number): Promise<WorkflowRunRow[]> =>
      runs.listWhere(projectId, 'workflow_id', workflowId, { order: 'desc', limit: RUNS_LISTED }),
    async listRunningIds(): Promise<number[]> {
      const rows = await db.selectFrom('workflow_run').select('id').where('status', '=', 'running').execute();
      return rows.map((r) => r.id);
    },
    listSteps(runId: number): Promise<WorkflowStepRunRow[]> {
      return db.selectFrom('workflow_step_run').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    },
    /** Moves a step on if it is still in one of `from`; false when another engine or a stop came first. */
    async moveStep(
      id: number,
      from: readonly WorkflowStepRunStatus[],
      changes: Updateable<WorkflowStepRunTable>,
    ): Promise<boolean> {
      return tryUpdate(
        db.updateTable('workflow_step_run').set(changes).where('id', '=', id).where('status', 'in', from),
      );
    },
    /** Stops every step of the run that has not ended. */
    async stopSteps(runId: number, from: readonly WorkflowStepRunStatus[], end: string): Promise<void> {
      await db
        .updateTable('workflow_step_run')
        .set({ status: 'stopped', end })
        .where('run_id', '=', runId)
        .where('status', 'in', from)
        .execute();
    },
    listDecisions(runId: number): Promise<WorkflowApprovalRow[]> {
      return db.selectFrom('workflow_approval').selectAll().where('run_id', '=', runId).orderBy('id').execute();
    },
    /**
     * Records a decision on a step that waits for approval and applies what `settle` makes of the
     * approvals now recorded, in one transaction under a lock of the step's row: two decisions at once
     * are taken one after the other (the second counts the first, only one moves the step), a user
     * decides once, and no decision lands on a step that a timeout or a stop has ended.
     */
    recordDecision(
      stepId: number,
      decision: NewDecision,
      settle: (approvals: number) => Updateable<WorkflowStepRunTable>,
    ): Promise<DecisionResult> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx): Promise<DecisionResult> => {
          const step = await lockForUpdate(
            trx.selectFrom('workflow_step_run').select('status').where('id', '=', stepId),
            dialect,
          ).executeTakeFirst();
          if (step?.status !== 'waiting_approval') return 'not_waiting';
          const earlier = await trx
            .selectFrom('workflow_approval')
            .select('id')
            .where('run_id', '=', decision.run_id)
            .where('step_key', '=', decision.step_key)
            .where('user_id', '=', decision.user_id)
            .executeTakeFirst();
          if (earlier) return 'duplicate';
          await insertRow(trx, dialect, 'workflow_approval', decision);
          const approvals = await lockForUpdate(
            trx
              .selectFrom('workflow_approval')
              .select('id')
              .where('run_id', '=', decision.run_id)
              .where('step_key', '=', decision.step_key)
              .where('decision', '=', 'approve'),
            dialect,
          ).execute();
          await trx
            .updateTable('workflow_step_run')
            .set(settle(approvals.length))
            .where('id', '=', stepId)
            .where('status', '=', 'waiting_approval')
            .execute();
          return 'recorded';
        }),
      );
    },
    /**
     * Ends a running run and counts it in its workflow's per-day stats, in one transaction; false when
     * it had already ended (then nothing is counted, so a run counts once whichever engine ends it).
     */
    end(id: number, status: EndedWorkflowRunStatus, end: string, message = ''): Promise<boolean> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const ended = await tryUpdate(
            trx
              .updateTable('workflow_run')
              .set({ status, end, message })
              .where('id', '=', id)
              .where('status', '=', 'running'),
          );
          if (!ended) return false;
          const run = await trx
            .selectFrom('workflow_run')
            .select(['project_id', 'workflow_id', 'start'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          await addWorkflowRunStatCount(trx, dialect, {
            project_id: run.project_id,
            workflow_id: run.workflow_id,
            start_day: run.start.slice(0, 10),
            status,
          });
          return true;
        }),
      );
    },
    /** The workflow's ended runs started from day `fromDay` to day `toDay` (YYYY-MM-DD, inclusive), one row per day. */
    async listStatCounts(projectId: number, workflowId: number, fromDay: string, toDay: string) {
      const countOf = (status: string) => sql<number>`sum(case when status = ${status} then run_count else 0 end)`;
      const rows = await db
        .selectFrom('workflow_run_stat_day')
        .select(['start_day', countOf('success').as('success'), countOf('failed').as('failed')])
        .select(countOf('stopped').as('stopped'))
        .where('workflow_id', '=', workflowId)
        .where('start_day', '>=', fromDay)
        .where('start_day', '<=', toDay)
        .where('project_id', '=', projectId)
        .groupBy('start_day')
        .execute();
      return rows.map((row) => readDayStatusCounts(row.start_day, row));
    },
  };
}

export type WorkflowRunsRepository = ReturnType<typeof createWorkflowRunsRepository>;
