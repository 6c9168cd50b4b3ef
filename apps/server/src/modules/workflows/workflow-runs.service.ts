import type {
  StatsEntry,
  StatsRangeQuery,
  TaskOutputs as TaskOutputValues,
  WorkflowDefinition,
  WorkflowRun,
  WorkflowRunDetail,
  WorkflowStep,
  WorkflowStepApproval,
  WorkflowStepRunStatus,
} from '@gantry/contract';
import {
  CreateTaskBody,
  Permission,
  TaskOutputs,
  WorkflowRunVariables,
  hasPermissions,
  isTaskFinished,
} from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { createStoreSweep } from '../../cluster/store-sweep.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { hashRequestKey } from '../tasks/task-request-key.ts';
import { AppError, badRequest, conflict, notFound, validationFailed } from '../../errors.ts';
import type { ApprovalWaiting, OwedAlert } from '../alerts/alert.ts';
import type { ApprovalGates, GateSubject } from '../approvals/approval-gate.ts';
import { createOwedAlert, type OwedAlertStore } from '../approvals/owed-alert.ts';
import type { EventsService } from '../events/events.service.ts';
import type { MemberAccess } from '../projects/projects.service.ts';
import { listStatsEntries, resolveStatsRange } from '../tasks/stats-days.ts';
import type { TaskOrigin } from '../tasks/task-creation.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { WorkflowRunsRepository } from './workflow-runs.repository.ts';
import { planRun } from './workflow-run-plan.ts';
import type { WorkflowsService } from './workflows.service.ts';
import type { WorkflowApprovalRow, WorkflowRunRow, WorkflowStepRunRow } from './workflows.table.ts';

/** How often the engine looks at the runs still going (ended tasks, due waits, runs left by a crash). */
const SWEEP_MS = 1000;
/** A step claimed this long ago without its task recorded was being started by an engine that died. */
const STARTING_STALE_MS = 60_000;
const UNENDED: WorkflowStepRunStatus[] = ['pending', 'starting', 'running', 'waiting_approval'];

type ApprovalStep = Extract<WorkflowStep, { kind: 'approval' }>;

interface WorkflowRunsDeps {
  runs: WorkflowRunsRepository;
  workflows: WorkflowsService;
  tasks: Pick<TasksService, 'create' | 'stop'>;
  findTask(id: number): Promise<TaskRow | undefined>;
  /** What a task published (its outputs), read when its step ends. */
  listTaskOutputs(taskId: number): Promise<TaskOutputValues>;
  /** The user's current rights in the project, or undefined when they are no member any more. */
  findMember(userId: number, projectId: number): Promise<MemberAccess | undefined>;
  events: EventsService;
  gates: ApprovalGates;
  /** Tells the project's alert channels that an approval step waits once `owed` is claimed; must not throw or wait. */
  alertApproval(waiting: ApprovalWaiting, owed: OwedAlert): void;
  /** Where an approval step's alert is recorded as owed, then sent. */
  owedAlertOf(stepRunId: number): OwedAlertStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  sweepMs?: number;
}

const toRun = (row: WorkflowRunRow): WorkflowRun => ({
  id: row.id,
  project_id: row.project_id,
  workflow_id: row.workflow_id,
  revision: row.revision,
  status: row.status,
  user_id: row.user_id,
  variables: JSON.parse(row.variables) as Record<string, string>,
  message: row.message,
  start: row.start,
  end: row.end,
  retry_of: row.retry_of,
  schedule_id: row.schedule_id,
  integration_id: row.integration_id,
});

/** A step's stored outputs; empty before its task ended (or for a value this version cannot read). */
function parseOutputs(text: string | null): TaskOutputValues {
  if (!text) return {};
  try {
    const parsed = TaskOutputs.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const toStepRun = (s: WorkflowStepRunRow, approval: WorkflowStepApproval | null) => ({
  key: s.step_key,
  kind: s.kind,
  status: s.status,
  task_id: s.task_id,
  due: s.due,
  message: s.message,
  start: s.start,
  end: s.end,
  approval,
  outputs: parseOutputs(s.outputs),
});

type RunFields = Pick<WorkflowRunRow, 'project_id' | 'workflow_id' | 'revision' | 'user_id' | 'variables'> &
  Partial<Pick<WorkflowRunRow, 'retry_of' | 'schedule_id' | 'integration_id' | 'request_key'>>;

/** A run as it starts: running, no end or message yet, and no origin but the one given. */
function startingRun(start: string, fields: RunFields): Omit<WorkflowRunRow, 'id'> {
  return {
    status: 'running',
    message: '',
    start,
    end: null,
    retry_of: null,
    schedule_id: null,
    integration_id: null,
    request_key: null,
    ...fields,
  };
}

/** Who starts a run: a user, or (with no user) a schedule or a webhook integration. */
export interface RunStarter {
  userId?: number;
  scheduleId?: number;
  integrationId?: number;
  /** The caller's Idempotency-Key or webhook delivery id: a request repeated with it gets the run the first started. */
  requestKey?: string;
}

/** The values of a run's variables: declared names only, defaults filled in, required ones present. */
export function resolveVariables(
  workflow: Pick<WorkflowDefinition, 'variables'>,
  given: Record<string, string>,
  requireAll = true,
): Record<string, string> {
  const declared = new Set(workflow.variables.map((v) => v.name));
  const unknown = Object.keys(given).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw validationFailed(`Unknown workflow variables: ${unknown.join(', ')}`);
  const variables: Record<string, string> = {};
  for (const v of workflow.variables) variables[v.name] = given[v.name] ?? v.default_value;
  const missing = workflow.variables.filter((v) => v.required && !variables[v.name]).map((v) => v.name);
  if (requireAll && missing.length > 0)
    throw validationFailed(`Required workflow variables missing: ${missing.join(', ')}`);
  return variables;
}

/** The values a workflow schedule or integration gives the workflow's variables: its task_params' `variables`. */
export function workflowVariablesOf(params: Record<string, unknown>): Record<string, string> {
  const parsed = WorkflowRunVariables.safeParse(params.variables ?? {});
  if (!parsed.success) throw badRequest(`task_params.variables: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * Runs workflows: each step's state is in the store and every move is a conditional update, so a
 * step starts once however many engines look at the run, and a run left by a crash goes on when
 * an engine next sweeps the runs still going.
 */
export function createWorkflowRuns(deps: WorkflowRunsDeps) {
  const { runs, clock } = deps;
  const now = () => toTimestamp(clock.now());
  // Counted from the step's own start, so its due time is exactly start + seconds.
  const later = (from: string, seconds: number) => toTimestamp(new Date(Date.parse(from) + seconds * 1000));

  async function definitionOf(run: WorkflowRunRow): Promise<WorkflowDefinition> {
    return (await deps.workflows.getVersion(run.project_id, run.workflow_id, run.revision)).definition;
  }

  const finish = (
    step: WorkflowStepRunRow,
    from: WorkflowStepRunStatus[],
    status: WorkflowStepRunStatus,
    message = '',
  ) => runs.moveStep(step.id, from, { status, message, end: now() });

  /** Sends the alert that an approval step waits, if it is still owed (and nobody else is sending it). */
  function alertApproval(run: WorkflowRunRow, row: WorkflowStepRunRow, step: WorkflowStep | undefined, name: string) {
    if (step?.kind !== 'approval' || row.approval_alert === null || row.due === null) return;
    const owed = createOwedAlert(deps.owedAlertOf(row.id), row.approval_alert, clock);
    const waiting: ApprovalWaiting = {
      projectId: run.project_id,
      workflow: { id: run.workflow_id, name },
      runId: run.id,
      step: { key: step.key, name: step.name || step.key },
      userId: run.user_id,
      required: step.required,
      due: row.due,
    };
    deps.alertApproval(waiting, owed);
  }

  /**
   * Ends the steps whose work is over: ended tasks, due waits, timed-out approvals, starts a dead engine left;
   * sends approval alerts a crash left owed.
   */
  async function settleSteps(
    run: WorkflowRunRow,
    steps: WorkflowStepRunRow[],
    definition: WorkflowDefinition,
  ): Promise<boolean> {
    let changed = false;
    const time = now();
    for (const step of steps) {
      const spec = definition.steps.find((s) => s.key === step.step_key);
      if (step.status === 'running' && step.task_id !== null) {
        const task = await deps.findTask(step.task_id);
        if (!task) changed = (await finish(step, ['running'], 'failed', 'The task was deleted')) || changed;
        else if (isTaskFinished(task.status)) {
          // The task stored its outputs before its final status: the run keeps them past the task's retention.
          const outputs = JSON.stringify(await deps.listTaskOutputs(task.id));
          const status = task.status === 'success' ? 'success' : 'failed';
          changed =
            (await runs.moveStep(step.id, ['running'], {
              status,
              message: `Task ${task.status}`,
              end: now(),
              outputs,
            })) || changed;
        }
      } else if (step.status === 'running' && step.due !== null && step.due <= time) {
        changed = (await finish(step, ['running'], 'success')) || changed;
      } else if (step.status === 'waiting_approval' && step.due !== null && step.due <= time) {
        const approve = spec?.kind === 'approval' && spec.on_timeout === 'approve';
        changed =
          (await finish(step, ['waiting_approval'], approve ? 'success' : 'failed', 'Approval timed out')) || changed;
      } else if (step.status === 'waiting_approval' && step.approval_alert !== null && step.approval_alert <= time) {
        alertApproval(run, step, spec, definition.name);
      } else if (step.status === 'starting' && Date.parse(step.start ?? time) + STARTING_STALE_MS < Date.parse(time)) {
        const message = 'Gantry stopped while starting this step; it was not started again';
        changed = (await finish(step, ['starting'], 'failed', message)) || changed;
      }
    }
    return changed;
  }

  /**
   * The step's survey values: its own, overridden by its inputs from workflow variables and from
   * earlier steps' outputs. An output the earlier step did not publish (or a step that did not run)
   * is a failure of this step, named in `missing`: an empty value would run the task with it silently.
   */
  async function inputValues(run: WorkflowRunRow, step: Extract<WorkflowStep, { kind: 'template' }>) {
    const variables = JSON.parse(run.variables) as Record<string, string>;
    const values: Record<string, string> = { ...step.survey_values };
    const fromSteps = step.inputs.some((input) => input.source === 'output')
      ? new Map((await runs.listSteps(run.id)).map((s) => [s.step_key, parseOutputs(s.outputs)]))
      : new Map<string, TaskOutputValues>();
    const missing: string[] = [];
    for (const input of step.inputs) {
      if (input.source === 'variable') {
        values[input.variable] = variables[input.name] ?? '';
        continue;
      }
      const value = fromSteps.get(input.step)?.[input.output];
      if (value === undefined) missing.push(`${input.step}.${input.output}`);
      else values[input.variable] = value;
    }
    return { values, missing };
  }

  /**
   * On whose behalf a step's task is created: the user who started the run, with their rights when
   * the step starts, or the schedule or integration that started it (set up by a manager, as for
   * the tasks they start). Undefined when that user may no longer run tasks (or was deleted).
   */
  async function originOfRun(run: WorkflowRunRow): Promise<TaskOrigin | undefined> {
    if (run.user_id !== null) {
      const member = await deps.findMember(run.user_id, run.project_id);
      return member && hasPermissions(member.permissions, Permission.runProjectTasks) ? member : undefined;
    }
    if (run.schedule_id !== null) return { scheduleId: run.schedule_id };
    if (run.integration_id !== null) return { integrationId: run.integration_id };
    return undefined;
  }

  async function startTemplate(run: WorkflowRunRow, row: WorkflowStepRunRow, step: WorkflowStep): Promise<void> {
    if (step.kind !== 'template') return;
    if (!(await runs.moveStep(row.id, ['pending'], { status: 'starting', start: now() }))) return;
    const origin = await originOfRun(run);
    if (!origin) {
      await finish(row, ['starting'], 'failed', 'Who started the run may no longer run tasks in this project');
      return;
    }
    const inputs = await inputValues(run, step);
    if (inputs.missing.length > 0) {
      const message = `Outputs not published by earlier steps: ${inputs.missing.join(', ')}`;
      await finish(row, ['starting'], 'failed', message.slice(0, 1000));
      return;
    }
    let taskId: number;
    try {
      const body = CreateTaskBody.parse({
        template_id: step.template_id,
        environment: JSON.stringify(inputs.values),
        inventory_id: step.inventory_id,
        params: step.params,
        message: `Workflow run ${run.id}, step ${step.key}`,
      });
      const withGroup = step.environment_id ? { ...origin, environmentId: step.environment_id } : origin;
      taskId = (await deps.tasks.create(run.project_id, body, withGroup)).id;
    } catch (error) {
      await finish(row, ['starting'], 'failed', errorText(error));
      return;
    }
    // A stop that came meanwhile has marked the step stopped: its task must not run either.
    if (!(await runs.moveStep(row.id, ['starting'], { status: 'running', task_id: taskId })))
      await deps.tasks.stop(run.project_id, taskId, false);
  }

  async function startStep(
    run: WorkflowRunRow,
    row: WorkflowStepRunRow,
    step: WorkflowStep,
    workflowName: string,
  ): Promise<void> {
    if (step.kind === 'template') return startTemplate(run, row, step);
    const start = now();
    if (step.kind === 'wait')
      await runs.moveStep(row.id, ['pending'], { status: 'running', start, due: later(start, step.seconds) });
    else {
      const due = later(start, step.timeout_seconds);
      const waiting = { status: 'waiting_approval' as const, start, due, message: `0 of ${step.required} approvals` };
      // The alert is owed in the same write that makes the step wait: sent now, or by a sweep after a crash.
      if (await runs.moveStep(row.id, ['pending'], { ...waiting, approval_alert: start }))
        alertApproval(run, { ...row, ...waiting, approval_alert: start }, step, workflowName);
    }
  }

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
    const definition = hasApprovals ? await definitionOf(run) : undefined;
    const decisions = hasApprovals ? await runs.listDecisions(run.id) : [];
    const detailed = [];
    for (const row of steps) {
      const step = definition?.steps.find((s) => s.key === row.step_key);
      detailed.push(toStepRun(row, await describeApproval(run, row, step, decisions, viewerId)));
    }
    return { ...toRun(run), steps: detailed, retried_by: await runs.findRetryOf(run.id) };
  }

  /** One look at a run: settle, skip, start, end. True when something moved (another look may move more). */
  async function advanceOnce(run: WorkflowRunRow, definition: WorkflowDefinition): Promise<boolean> {
    let steps = await runs.listSteps(run.id);
    if (await settleSteps(run, steps, definition)) steps = await runs.listSteps(run.id);
    const plan = planRun(definition, new Map(steps.map((s) => [s.step_key, s.status])));
    const rows = new Map(steps.map((s) => [s.step_key, s]));
    for (const key of plan.skip) {
      const row = rows.get(key);
      if (row) await runs.moveStep(row.id, ['pending'], { status: 'skipped', end: now() });
    }
    for (const key of plan.start) {
      const row = rows.get(key);
      const step = definition.steps.find((s) => s.key === key);
      if (row && step) await startStep(run, row, step, definition.name);
    }
    if (plan.done) {
      if (await runs.end(run.id, plan.outcome, now()))
        await deps.events.record({
          userId: run.user_id,
          projectId: run.project_id,
          objectType: 'workflow',
          objectId: run.workflow_id,
          description: `Workflow run ${run.id} finished: ${plan.outcome}`,
        });
      return false;
    }
    return plan.start.length > 0 || plan.skip.length > 0;
  }

  async function advance(runId: number): Promise<void> {
    const run = await runs.findById(runId);
    if (!run || run.status !== 'running') return;
    const definition = await definitionOf(run);
    // Each round ends at least one step or starts one, so a run needs at most one round per step and one more.
    for (let round = 0; round <= definition.steps.length; round++) if (!(await advanceOnce(run, definition))) break;
  }

  const sweep = createStoreSweep({
    name: 'workflow sweep',
    listDue: () => runs.listRunningIds(),
    handle: advance,
    describe: (id) => ({ runId: id }),
    logger: deps.logger,
    intervalMs: deps.sweepMs ?? SWEEP_MS,
  });

  /** The run an earlier request with the same key started, if it asked for the same workflow. */
  async function findRepeated(projectId: number, requestKey: string, workflowId: number): Promise<number | undefined> {
    const earlier = await runs.findByRequestKey(projectId, requestKey);
    if (earlier && earlier.workflow_id !== workflowId)
      throw conflict('This Idempotency-Key was already used for a run of another workflow');
    return earlier?.id;
  }

  /** Stores a run of the workflow's current revision and starts its first steps; resolves to its id. */
  async function begin(
    projectId: number,
    workflowId: number,
    given: Record<string, string>,
    starter: RunStarter,
  ): Promise<number> {
    const requestKey = starter.requestKey === undefined ? null : hashRequestKey(starter, starter.requestKey);
    const repeated = requestKey === null ? undefined : await findRepeated(projectId, requestKey, workflowId);
    if (repeated !== undefined) return repeated;
    const workflow = await deps.workflows.get(projectId, workflowId);
    const variables = resolveVariables(workflow, given);
    let id: number;
    try {
      id = await runs.insert(
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
    } catch (error) {
      // The same request at the same moment on another node: the one that stored its run first wins.
      const winner =
        requestKey !== null && isUniqueViolation(error)
          ? await findRepeated(projectId, requestKey, workflowId)
          : undefined;
      if (winner !== undefined) return winner;
      throw error;
    }
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
    await advance(id);
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
      const step = (await definitionOf(run)).steps.find((s) => s.key === stepKey);
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
      await advance(run.id);
      return toDetail((await runs.findById(run.id)) ?? run, actor.id);
    },
    /**
     * Retries a failed or stopped run as a new run of the same revision and variables, on behalf of
     * the user who retries. The steps to run again are the chosen failed or stopped step (or every
     * failed step) and every step downstream of them; every other step that succeeded or failed
     * keeps its result (task, times, approvals) and is not run again, the rest (stopped, skipped,
     * never started) start pending. The engine then goes on from there as for any run: a new run
     * means fresh step rows, so no step row is ever started twice.
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
      const definition = await definitionOf(old);
      const steps = await runs.listSteps(old.id);
      const retried = new Set<string>();
      if (stepKey !== null) {
        const row = steps.find((s) => s.step_key === stepKey);
        if (!row) throw notFound('Workflow step');
        if (row.status !== 'failed' && row.status !== 'stopped')
          throw conflict(`Step "${stepKey}" did not fail and was not stopped`);
        retried.add(stepKey);
      } else for (const s of steps) if (s.status === 'failed') retried.add(s.step_key);
      // Everything downstream of a retried step depends on its new result: it runs again too.
      for (let grew = true; grew;) {
        grew = false;
        for (const edge of definition.edges)
          if (retried.has(edge.from) && !retried.has(edge.to)) {
            retried.add(edge.to);
            grew = true;
          }
      }
      const keeps = (s: WorkflowStepRunRow) =>
        (s.status === 'success' || s.status === 'failed') && !retried.has(s.step_key);
      if (steps.every(keeps)) throw conflict('The run has no failed or stopped step to retry');
      const kept = new Set(steps.filter(keeps).map((s) => s.step_key));
      const time = now();
      let id: number;
      try {
        id = await runs.insert(
          startingRun(time, {
            project_id: projectId,
            workflow_id: workflowId,
            revision: old.revision,
            user_id: actor.id,
            variables: old.variables,
            retry_of: old.id,
          }),
          steps.map((s) =>
            kept.has(s.step_key)
              ? {
                  step_key: s.step_key,
                  kind: s.kind,
                  status: s.status,
                  task_id: s.task_id,
                  message: `Kept from run ${old.id}${s.message ? `: ${s.message}` : ''}`.slice(0, 1024),
                  start: s.start,
                  end: s.end,
                  // Steps run again take their inputs from the kept steps' outputs.
                  outputs: s.outputs,
                }
              : { step_key: s.step_key, kind: s.kind },
          ),
          (await runs.listDecisions(old.id))
            .filter((d) => kept.has(d.step_key))
            .map((d) => ({
              project_id: d.project_id,
              step_key: d.step_key,
              user_id: d.user_id,
              username: d.username,
              decision: d.decision,
              reason: d.reason,
              created: d.created,
            })),
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
      await advance(id);
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
    advance,
    /** Starts this node's sweep of the runs still going (several nodes may sweep the same store). */
    beginSweep: sweep.begin,
    endSweep: sweep.end,
  };
}

export type WorkflowRuns = ReturnType<typeof createWorkflowRuns>;
