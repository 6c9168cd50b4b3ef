import type { ApprovalGate, TaskApproval } from '@gantry/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { createStoreSweep } from '../../cluster/store-sweep.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { OwedAlert } from '../alerts/alert.ts';
import type { ApprovalGates, GateSubject } from '../approvals/approval-gate.ts';
import { createOwedAlert, type OwedAlertStore } from '../approvals/owed-alert.ts';
import type { EventsService } from '../events/events.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { LogLine } from '../../live/live-hub.ts';
import type { GateStep, TaskApprovalsRepository } from './task-approvals.repository.ts';
import type { TaskEngine } from './task-engine.ts';
import { finalLine } from './task-statuses.ts';
import { toLogLine, type TaskOutput } from './task-output.ts';
import type { TasksRepository } from './tasks.repository.ts';
import type { TaskApprovalRow, TaskRow } from './tasks.table.ts';

/** How often a node looks for tasks whose time to be approved is over. */
const SWEEP_MS = 1000;
/** Timed-out tasks settled per sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 100;
/** A node that claimed a timed-out task and died: another settles it after this long. */
const CLAIM_MS = 60_000;

interface TaskApprovalsDeps {
  tasks: TasksRepository;
  announcer: Pick<TaskApprovalAnnouncer, 'alert'>;
  approvals: TaskApprovalsRepository;
  gates: ApprovalGates;
  engine: Pick<TaskEngine, 'announce'>;
  output: TaskOutput;
  events: EventsService;
  clock: Clock;
  logger: FastifyBaseLogger;
  sweepMs?: number;
}

const gateOf = (task: TaskRow): ApprovalGate | undefined =>
  task.approval === null ? undefined : (JSON.parse(task.approval) as ApprovalGate);

function stateOf(task: TaskRow, gate: ApprovalGate, decisions: TaskApprovalRow[]): TaskApproval['state'] {
  if (task.status === 'waiting_approval') return 'waiting';
  if (decisions.some((d) => d.decision === 'reject')) return 'rejected';
  if (decisions.filter((d) => d.decision === 'approve').length >= gate.required) return 'approved';
  // Stopped while it waited: nobody decided and no timeout came.
  if (task.status === 'stopped' && task.start === null) return 'stopped';
  return 'timed_out';
}

/**
 * What a task created under a gate does first: says so in its log and alerts the approvers. Task
 * creation calls it, so it is built before the engine that the rest of the approvals need.
 */
export function createTaskApprovalAnnouncer(deps: {
  output: TaskOutput;
  /** Tells the project's alert channels that a task waits for approval once `owed` is claimed; must not throw or wait. */
  alertWaiting(task: TaskRow, gate: ApprovalGate, owed: OwedAlert): void;
  owedAlertOf(taskId: number): OwedAlertStore;
  clock: Clock;
}) {
  /** Sends the task's approval alert if it is owed (and nobody else is sending it). */
  function alert(task: TaskRow): void {
    const gate = gateOf(task);
    if (!gate || task.approval_alert === null) return;
    deps.alertWaiting(task, gate, createOwedAlert(deps.owedAlertOf(task.id), task.approval_alert, deps.clock));
  }
  return {
    async announce(task: TaskRow): Promise<void> {
      const gate = gateOf(task);
      if (!gate || task.status !== 'waiting_approval') return;
      await deps.output.write(task, [
        `Waiting for approval: ${gate.required} approval(s) needed by ${task.approval_due ?? 'never'}.`,
      ]);
      alert(task);
    },
    alert,
  };
}
type TaskApprovalAnnouncer = ReturnType<typeof createTaskApprovalAnnouncer>;

/**
 * Tasks of templates that need approval (docs/workflows.md, "Templates that need approval"): such a
 * task waits as `waiting_approval`, outside the queue, until its approvers approve it (it joins the
 * queue), one rejects it or its time runs out (it ends as rejected, or joins the queue when the
 * template says so). Its state is in the store, so a restarted node or another node of a cluster
 * carries on.
 */
export function createTaskApprovals(deps: TaskApprovalsDeps) {
  const now = () => toTimestamp(deps.clock.now());

  const subjectOf = (task: TaskRow, gate: ApprovalGate, decisions: TaskApprovalRow[]): GateSubject => ({
    projectId: task.project_id,
    gate,
    starterId: task.user_id,
    decisions,
    waiting: task.status === 'waiting_approval',
  });

  async function getGated(projectId: number, taskId: number): Promise<{ task: TaskRow; gate: ApprovalGate }> {
    const task = await deps.tasks.find(projectId, taskId);
    if (!task) throw notFound('Task');
    const gate = gateOf(task);
    if (!gate) throw badRequest('The task did not need approval');
    return { task, gate };
  }

  async function describe(task: TaskRow, gate: ApprovalGate, viewerId: number): Promise<TaskApproval> {
    const decisions = await deps.approvals.listDecisions(task.id);
    return {
      ...(await deps.gates.describe(subjectOf(task, gate, decisions), viewerId)),
      task_id: task.id,
      state: stateOf(task, gate, decisions),
      due: task.status === 'waiting_approval' ? task.approval_due : null,
    };
  }

  const records = (lines: string[]) => {
    const time = now();
    return lines.map((output) => ({ time, output: toLogLine(output) }));
  };
  /** The gate ends the task as rejected, its log saying why. */
  const rejecting = (line: string): GateStep => ({
    lines: records([line, finalLine('rejected')]),
    settle: { status: 'rejected', end: now(), pid: null },
  });
  /** The gate lets the task join the queue. */
  const releasing = (line: string): GateStep => ({
    lines: records([line]),
    settle: { status: 'waiting', approval_due: null },
  });

  /** Follows a gate step stored with its task: its lines and new status go to the clients, the queue moves. */
  async function announce(task: TaskRow, stored: LogLine[], settled: GateStep['settle']): Promise<void> {
    await deps.output.publish(task, stored);
    if (settled) await deps.engine.announce(task, settled.status, settled);
  }

  async function settleTimedOut(task: TaskRow): Promise<void> {
    const gate = gateOf(task);
    const due = task.approval_due;
    if (!gate || due === null) return;
    const retryAt = toTimestamp(new Date(deps.clock.now().getTime() + CLAIM_MS));
    if (!(await deps.approvals.claimTimedOut(task.id, due, retryAt))) return;
    const what = `Nobody approved the task in ${gate.timeout_seconds} seconds`;
    const step =
      gate.on_timeout === 'approve'
        ? releasing(`${what}; the template approves it on timeout.`)
        : rejecting(`${what}; the template rejects it on timeout.`);
    const stored = await deps.approvals.settleWaiting(task.id, step);
    // A decision or a stop came first.
    if (!stored) return;
    await announce(task, stored, step.settle);
    await deps.events.record({
      userId: null,
      projectId: task.project_id,
      objectType: 'task',
      objectId: task.id,
      description: `Task ${task.id} approval timed out: ${gate.on_timeout === 'approve' ? 'approved' : 'rejected'}`,
    });
  }

  const sweep = createStoreSweep({
    name: 'approval sweep',
    listDue: () => deps.approvals.listTimedOut(now(), SWEEP_BATCH),
    handle: settleTimedOut,
    describe: (task) => ({ taskId: task.id }),
    logger: deps.logger,
    intervalMs: deps.sweepMs ?? SWEEP_MS,
  });
  // Alerts that a crash (or a failed read) left owed: sent again, each by one node.
  const alertSweep = createStoreSweep({
    name: 'approval alert sweep',
    listDue: () => deps.approvals.listOwedAlerts(now(), SWEEP_BATCH),
    handle: (task) => Promise.resolve(deps.announcer.alert(task)),
    describe: (task) => ({ taskId: task.id }),
    logger: deps.logger,
    intervalMs: deps.sweepMs ?? SWEEP_MS,
  });

  return {
    async get(viewer: UserRow, projectId: number, taskId: number): Promise<TaskApproval> {
      const { task, gate } = await getGated(projectId, taskId);
      return describe(task, gate, viewer.id);
    },

    /**
     * Records an approver's approval or rejection of a task that waits. N approvals put it in the
     * queue, one rejection ends it as rejected; the decision and its reason go to the activity log.
     */
    async decide(
      actor: UserRow,
      projectId: number,
      taskId: number,
      decision: 'approve' | 'reject',
      reason: string,
    ): Promise<TaskApproval> {
      const { task, gate } = await getGated(projectId, taskId);
      if (task.status !== 'waiting_approval') throw conflict('The task is not waiting for approval');
      const decisions = await deps.approvals.listDecisions(task.id);
      if (decisions.some((d) => d.user_id === actor.id)) throw conflict('You have already decided on this task');
      await deps.gates.assertMayDecide(subjectOf(task, gate, decisions), actor.id, { started: 'task', gated: 'task' });
      const line = `${decision === 'approve' ? 'Approved' : 'Rejected'} by ${actor.username}: ${reason}`;
      const stepOf = (approvals: number): GateStep => {
        const outcome = deps.gates.settle(gate, decision, approvals, actor.username);
        if (outcome.settled === 'rejected') return rejecting(line);
        if (outcome.settled === 'approved') return releasing(`${line} (${outcome.message}); the task is queued.`);
        return { lines: records([`${line} (${outcome.message}).`]) };
      };
      const decisionRow = {
        task_id: task.id,
        project_id: projectId,
        user_id: actor.id,
        username: actor.username,
        decision,
        reason,
        created: now(),
      };
      const result = await deps.approvals.recordDecision(decisionRow, stepOf);
      if (!result.recorded)
        throw conflict(
          result.why === 'duplicate' ? 'You have already decided on this task' : 'The task is not waiting for approval',
        );
      const verb = decision === 'approve' ? 'approved' : 'rejected';
      await deps.events.record({
        userId: actor.id,
        projectId,
        objectType: 'task',
        objectId: task.id,
        description: `Task ${task.id} ${verb} by ${actor.username}: ${reason}`,
      });
      await announce(task, result.stored, result.settled);
      return describe((await deps.tasks.findById(task.id)) ?? task, gate, actor.id);
    },

    /** Settles the approvals that timed out now (the sweep's round; tests call it with a clock moved on). */
    settleTimedOut: sweep.round,
    /** Sends the approval alerts still owed now (the alert sweep's round). */
    sendOwedAlerts: alertSweep.round,
    /** Starts this node's sweeps of timed-out approvals and owed alerts (several nodes may sweep the same store). */
    beginSweep(): void {
      sweep.begin();
      alertSweep.begin();
    },
    async endSweep(): Promise<void> {
      await Promise.all([sweep.end(), alertSweep.end()]);
    },
  };
}

export type TaskApprovals = ReturnType<typeof createTaskApprovals>;
