import type {
  TaskOutputs as TaskOutputValues,
  WorkflowDefinition,
  WorkflowStep,
  WorkflowStepRunStatus,
} from '@gantry/contract';
import { CreateTaskBody, Permission, hasPermissions, isTaskFinished } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { createStoreSweep } from '../../cluster/store-sweep.ts';
import type { ApprovalWaiting, OwedAlert } from '../alerts/alert.ts';
import { createOwedAlert, type OwedAlertStore } from '../approvals/owed-alert.ts';
import type { EventsService } from '../events/events.service.ts';
import type { MemberAccess } from '../projects/projects.service.ts';
import type { TaskOrigin } from '../tasks/task-creation.ts';
import type { TaskRow } from '../tasks/tasks.table.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import { parseOutputs } from './workflow-run-rows.ts';
import type { WorkflowRunsRepository } from './workflow-runs.repository.ts';
import { planRun } from './workflow-run-plan.ts';
import type { WorkflowsService } from './workflows.service.ts';
import type { WorkflowRunRow, WorkflowStepRunRow } from './workflows.table.ts';

/** How often the engine looks at the runs still going (ended tasks, due waits, runs left by a crash). */
const SWEEP_MS = 1000;
/** A step claimed this long ago without its task recorded was being started by an engine that died. */
const STARTING_STALE_MS = 60_000;

export interface WorkflowRunEngineDeps {
  runs: WorkflowRunsRepository;
  workflows: Pick<WorkflowsService, 'getVersion'>;
  tasks: Pick<TasksService, 'create' | 'stop'>;
  findTask(id: number): Promise<TaskRow | undefined>;
  /** What a task published (its outputs), read when its step ends. */
  listTaskOutputs(taskId: number): Promise<TaskOutputValues>;
  /** The user's current rights in the project, or undefined when they are no member any more. */
  findMember(userId: number, projectId: number): Promise<MemberAccess | undefined>;
  events: EventsService;
  /** Tells the project's alert channels that an approval step waits once `owed` is claimed; must not throw or wait. */
  alertApproval(waiting: ApprovalWaiting, owed: OwedAlert): void;
  /** Where an approval step's alert is recorded as owed, then sent. */
  owedAlertOf(stepRunId: number): OwedAlertStore;
  clock: Clock;
  logger: FastifyBaseLogger;
  sweepMs?: number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * Moves workflow runs on: each step's state is in the store and every move is a conditional update,
 * so a step starts once however many engines look at the run, and a run left by a crash goes on
 * when an engine next sweeps the runs still going.
 */
export function createWorkflowRunEngine(deps: WorkflowRunEngineDeps) {
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

  return {
    /** The definition of the revision the run runs. */
    definitionOf,
    /** Moves the run on as far as it can go now: ends what is over, skips and starts what is next, ends the run. */
    advance,
    /** Starts this node's sweep of the runs still going (several nodes may sweep the same store). */
    beginSweep: sweep.begin,
    endSweep: sweep.end,
  };
}
