import type {
  StatsEntry,
  StatsRangeQuery,
  WorkflowRun,
  WorkflowRunDetail,
  WorkflowStep,
  WorkflowStepApproval,
  WorkflowStepRunStatus,
} from '@gantry/contract';
import { toTimestamp } from '../../clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import type { ApprovalGates, GateSubject } from '../approvals/approval-gate.ts';
import { listStatsEntries, resolveStatsRange } from '../tasks/stats-days.ts';
import { createOnce, hashRequestKey } from '../tasks/task-request-key.ts';
import type { UserRow } from '../users/users.table.ts';
import { createWorkflowRunEngine, type WorkflowRunEngineDeps } from './workflow-run-engine.ts';
import { planRetry } from './workflow-run-retry.ts';
import { startingRun, toRun, toStepRun } from './workflow-run-rows.ts';
import { resolveVariables } from './workflow-variables.ts';
import type { WorkflowsService } from './workflows.service.ts';
import type { WorkflowApprovalRow, WorkflowRunRow, WorkflowStepRunRow } from './workflows.table.ts';

const UNENDED: WorkflowStepRunStatus[] = ['pending', 'starting', 'running', 'waiting_approval'];

type ApprovalStep = Extract<WorkflowStep, { kind: 'approval' }>;

interface WorkflowRunsDeps extends WorkflowRunEngineDeps {
  workflows: WorkflowsService;
  gates: ApprovalGates;
}

/** Who starts a run: a user, or (with no user) a schedule or a webhook integration. */
export interface RunStarter {
  userId?: number;
  scheduleId?: number;
  integrationId?: number;
  /** The caller's Idempotency-Key or webhook delivery id: a request repeated with it gets the run the first started. */
  requestKey?: string;
}

/**
 * Workflow runs as users, schedules and webhooks see them: start (once per request key), read, decide on an
 * approval step, retry, stop. The engine (workflow-run-engine.ts) moves each run on.
 */
export function createWorkflowRuns(deps: WorkflowRunsDeps) {
  const { runs, clock } = deps;
  const now = () => toTimestamp(clock.now());
  const engine = createWorkflowRunEngine(deps);

  const subjectOf = (
    run: WorkflowRunRow,
    row: WorkflowStepRunRow,
    step: ApprovalStep,
    decisions: WorkflowApprovalRow[],
  ): GateSubject => ({
    projectId: run.project_id,
    gate: step,
    starterId: run.user_id,
    decisions: decisions.filter((d) => d.step_key === step.key),
    waiting: row.status === 'waiting_approval',
  });

  async function describeApproval(
    run: WorkflowRunRow,
    row: WorkflowStepRunRow,
    step: WorkflowStep | undefined,
    decisions: WorkflowApprovalRow[],
    viewerId: number,
  ): Promise<WorkflowStepApproval | null> {
    if (step?.kind !== 'approval') return null;
    return deps.gates.describe(subjectOf(run, row, step, decisions), viewerId);
  }

  async function toDetail(run: WorkflowRunRow, viewerId: number): Promise<WorkflowRunDetail> {
    const steps = await runs.listSteps(run.id);
    const hasApprovals = steps.some((s) => s.kind === 'approval');
    const definition = hasApprovals ? await engine.definitionOf(run) : undefined;
    const decisions = hasApprovals ? await runs.listDecisions(run.id) : [];
    const detailed = [];
    for (const row of steps) {
      const step = definition?.steps.find((s) => s.key === row.step_key);
      detailed.push(toStepRun(row, await describeApproval(run, row, step, decisions, viewerId)));
    }
    return { ...toRun(run), steps: detailed, retried_by: await runs.findRetryOf(run.id) };
  }

  /** The run an earlier request with the same key started, if it asked for the same workflow. */
  async function findRepeated(projectId: number, requestKey: string, workflowId: number): Promise<number | undefined> {
    const earlier = await runs.findByRequestKey(projectId, requestKey);
    if (earlier && earlier.workflow_id !== workflowId)
      throw conflict('This Idempotency-Key was already used for a run of another workflow');
    return earlier?.id;
  }

  /** A new run of the workflow's current revision, or the run an earlier request with the key started: its id. */
  async function begin(
    projectId: number,
    workflowId: number,
    given: Record<string, string>,
    starter: RunStarter,
  ): Promise<number> {
    const requestKey = hashRequestKey(starter, starter.requestKey);
    return createOnce(
      requestKey,
      (key) => findRepeated(projectId, key, workflowId),
      () => insertRun(projectId, workflowId, given, starter, requestKey),
    );
  }

  /** Stores a run of the workflow's current revision and starts its first steps (no earlier request did). */
  async function insertRun(
    projectId: number,
    workflowId: number,
    given: Record<string, string>,
    starter: RunStarter,
    requestKey: string | null,
  ): Promise<number> {
    const workflow = await deps.workflows.get(projectId, workflowId);
    const variables = resolveVariables(workflow, given);
    const id = await runs.insert(
      startingRun(now(), {
        project_id: projectId,
        workflow_id: workflowId,
        revision: workflow.revision,
        user_id: starter.userId ?? null,
        variables: JSON.stringify(variables),
        schedule_id: starter.scheduleId ?? null,
        integration_id: starter.integrationId ?? null,
        request_key: requestKey,
      }),
      workflow.steps.map((s) => ({ step_key: s.key, kind: s.kind })),
    );
    const by =
      starter.scheduleId !== undefined
        ? ` by schedule ${starter.scheduleId}`
        : starter.integrationId !== undefined
          ? ` by integration ${starter.integrationId}`
          : '';
    await deps.events.record({
      userId: starter.userId ?? null,
      projectId,
      objectType: 'workflow',
      objectId: workflowId,
      objectName: workflow.name,
      description: `Workflow ${workflow.name} run ${id} started${by}`,
    });
    await engine.advance(id);
    return id;
  }

  async function getRun(projectId: number, workflowId: number, runId: number): Promise<WorkflowRunRow> {
    const run = await runs.find(projectId, workflowId, runId);
    if (!run) throw notFound('Workflow run');
    return run;
  }

  return {
    async start(
      actor: UserRow,
      projectId: number,
      workflowId: number,
      given: Record<string, string>,
      requestKey?: string,
    ) {
      const id = await begin(projectId, workflowId, given, {
        userId: actor.id,
        ...(requestKey === undefined ? {} : { requestKey }),
      });
      return this.get(actor, projectId, workflowId, id);
    },
    /** Starts a run for a schedule or a webhook integration (no user); resolves to the run's id. */
    startFor: (starter: RunStarter, projectId: number, workflowId: number, given: Record<string, string>) =>
      begin(projectId, workflowId, given, starter),
    /**
     * Why a run of the workflow with these variables would be refused (what a schedule saving it
     * checks); with `requireAll` false, required variables may be left for later (an integration's
     * extracted values).
     */
    async explainStart(projectId: number, workflowId: number, given: Record<string, string>, requireAll = true) {
      try {
        resolveVariables(await deps.workflows.get(projectId, workflowId), given, requireAll);
        return undefined;
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return error.status === 404 ? 'Workflow not found in this project' : error.message;
      }
    },
    /** The workflow's ended runs per day of their start and outcome, zero days included. */
    async stats(projectId: number, workflowId: number, query: StatsRangeQuery): Promise<StatsEntry[]> {
      await deps.workflows.get(projectId, workflowId);
      const { start, end } = resolveStatsRange(clock.now(), query);
      return listStatsEntries(start, end, await runs.listStatCounts(projectId, workflowId, start, end));
    },
    async list(projectId: number, workflowId: number): Promise<WorkflowRun[]> {
      await deps.workflows.get(projectId, workflowId);
      return (await runs.list(projectId, workflowId)).map(toRun);
    },
    async get(viewer: UserRow, projectId: number, workflowId: number, runId: number): Promise<WorkflowRunDetail> {
      return toDetail(await getRun(projectId, workflowId, runId), viewer.id);
    },
    /**
     * Records an approver's approval or rejection of a step that waits. N approvals end the step as
     * a success, one rejection ends it as failed; the step's edges then fire as for any other step.
     */
    async decide(
      actor: UserRow,
      target: { projectId: number; workflowId: number; runId: number; stepKey: string },
      decision: 'approve' | 'reject',
      reason: string,
    ): Promise<WorkflowRunDetail> {
      const run = await getRun(target.projectId, target.workflowId, target.runId);
      const { stepKey } = target;
      const step = (await engine.definitionOf(run)).steps.find((s) => s.key === stepKey);
      const row = (await runs.listSteps(run.id)).find((s) => s.step_key === stepKey);
      if (!step || !row) throw notFound('Workflow step');
      if (step.kind !== 'approval') throw badRequest(`Step "${stepKey}" is not an approval step`);
      if (row.status !== 'waiting_approval') throw conflict(`Step "${stepKey}" is not waiting for approval`);
      const decisions = await runs.listDecisions(run.id);
      if (decisions.some((d) => d.step_key === stepKey && d.user_id === actor.id))
        throw conflict('You have already decided on this step');
      await deps.gates.assertMayDecide(subjectOf(run, row, step, decisions), actor.id, {
        started: 'run',
        gated: 'step',
      });
      const time = now();
      const result = await runs.recordDecision(
        row.id,
        {
          run_id: run.id,
          project_id: run.project_id,
          step_key: stepKey,
          user_id: actor.id,
          username: actor.username,
          decision,
          reason,
          created: time,
        },
        (approvals) => {
          const { settled, message } = deps.gates.settle(step, decision, approvals, actor.username);
          if (settled === 'waiting') return { message };
          return { status: settled === 'approved' ? 'success' : 'failed', end: time, message };
        },
      );
      if (result === 'duplicate') throw conflict('You have already decided on this step');
      if (result === 'not_waiting') throw conflict(`Step "${stepKey}" is not waiting for approval`);
      await deps.events.record({
        userId: actor.id,
        projectId: run.project_id,
        objectType: 'workflow',
        objectId: run.workflow_id,
        description: `Workflow run ${run.id}, step ${stepKey} ${decision === 'approve' ? 'approved' : 'rejected'} by ${actor.username}: ${reason}`,
      });
      await engine.advance(run.id);
      return toDetail((await runs.findById(run.id)) ?? run, actor.id);
    },
    /**
     * Retries a failed or stopped run as a new run of the same revision and variables, on behalf of
     * the user who retries, keeping the results of the steps `planRetry` keeps. The engine then goes on
     * from there as for any run: a new run means fresh step rows, so no step row is ever started twice.
     */
    async retry(
      actor: UserRow,
      projectId: number,
      workflowId: number,
      runId: number,
      stepKey: string | null,
    ): Promise<WorkflowRunDetail> {
      const old = await getRun(projectId, workflowId, runId);
      if (old.status !== 'failed' && old.status !== 'stopped')
        throw conflict('Only a failed or stopped run can be retried');
      const plan = planRetry(await engine.definitionOf(old), old, {
        steps: await runs.listSteps(old.id),
        decisions: await runs.listDecisions(old.id),
        stepKey,
      });
      let id: number;
      try {
        id = await runs.insert(
          startingRun(now(), {
            project_id: projectId,
            workflow_id: workflowId,
            revision: old.revision,
            user_id: actor.id,
            variables: old.variables,
            retry_of: old.id,
          }),
          plan.steps,
          plan.decisions,
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw conflict(`Run ${old.id} has already been retried`);
      }
      await deps.events.record({
        userId: actor.id,
        projectId,
        objectType: 'workflow',
        objectId: workflowId,
        description: `Workflow run ${old.id} retried as run ${id}`,
      });
      await engine.advance(id);
      return this.get(actor, projectId, workflowId, id);
    },
    /** Ends the run as stopped, marks its unended steps stopped and stops the tasks they started. */
    async stop(actor: UserRow, projectId: number, workflowId: number, runId: number): Promise<void> {
      const run = await getRun(projectId, workflowId, runId);
      const end = now();
      if (!(await runs.end(run.id, 'stopped', end, `Stopped by ${actor.username}`)))
        throw conflict('The workflow run has already ended');
      await runs.stopSteps(run.id, UNENDED, end);
      // Read after the stop: a step whose task was recorded meanwhile is stopped with it.
      for (const step of await runs.listSteps(run.id))
        if (step.status === 'stopped' && step.task_id !== null)
          await deps.tasks
            .stop(projectId, step.task_id, false)
            .catch((error: unknown) =>
              deps.logger.warn({ err: error, taskId: step.task_id }, 'task of a run not stopped'),
            );
      await deps.events.record({
        userId: actor.id,
        projectId,
        objectType: 'workflow',
        objectId: workflowId,
        description: `Workflow run ${run.id} stopped`,
      });
    },
    advance: engine.advance,
    beginSweep: engine.beginSweep,
    endSweep: engine.endSweep,
  };
}

export type WorkflowRuns = ReturnType<typeof createWorkflowRuns>;
