import type { ApprovalDecision, ApprovalGate, ApprovalState } from '@gantry/contract';
import { forbidden } from '../../errors.ts';
import type { ApprovalsRepository, ApproverRow } from './approvals.repository.ts';

/** A decision as every gate stores it. */
interface StoredDecision {
  user_id: number | null;
  username: string;
  decision: ApprovalDecision['decision'];
  reason: string;
  created: string;
}

/** What is being approved: the gate, who started it, its decisions so far and whether it still waits. */
export interface GateSubject {
  projectId: number;
  gate: ApprovalGate;
  starterId: number | null;
  decisions: StoredDecision[];
  waiting: boolean;
}

/** Where a decision leaves the gate: still waiting (with its count), approved or rejected. */
export interface GateOutcome {
  settled: 'waiting' | 'approved' | 'rejected';
  message: string;
}

/**
 * The rules of an approval gate, shared by workflow approval steps and templates that need approval:
 * who may decide (members who are no guests, listed or holding a role, each once, the starter only
 * when allowed), what an approval or a rejection makes of it, and how it is shown.
 */
export function createApprovalGates(deps: { approvals: ApprovalsRepository }) {
  /** Members who may still decide: approvers who have not decided, the starter only if allowed. */
  async function listPendingApprovers(subject: GateSubject): Promise<ApproverRow[]> {
    const { gate } = subject;
    const decided = new Set(subject.decisions.map((d) => d.user_id));
    const approvers = await deps.approvals.listApprovers(
      subject.projectId,
      gate.approvers.user_ids,
      gate.approvers.roles,
    );
    return approvers.filter((a) => !decided.has(a.id) && (gate.starter_may_approve || a.id !== subject.starterId));
  }

  return {
    listPendingApprovers,
    listApprovers: deps.approvals.listApprovers,

    /**
     * Throws unless the user may decide now; the caller has checked that the subject waits. `started`
     * names what its starter started (a run, a task), `gated` what waits (a step, a task).
     */
    async assertMayDecide(
      subject: GateSubject,
      userId: number,
      names: { started: string; gated: string },
    ): Promise<void> {
      if (userId === subject.starterId && !subject.gate.starter_may_approve)
        throw forbidden(`Who started the ${names.started} may not approve or reject it`);
      if (!(await listPendingApprovers(subject)).some((a) => a.id === userId))
        throw forbidden(`You are not an approver of this ${names.gated}`);
    },

    /** N approvals approve, one rejection rejects whatever came before. */
    settle(gate: ApprovalGate, decision: 'approve' | 'reject', approvals: number, username: string): GateOutcome {
      if (decision === 'reject') return { settled: 'rejected', message: `Rejected by ${username}`.slice(0, 1024) };
      const message = `${approvals} of ${gate.required} approvals`;
      return { settled: approvals >= gate.required ? 'approved' : 'waiting', message };
    },

    async describe(subject: GateSubject, viewerId: number): Promise<ApprovalState> {
      const pending = subject.waiting ? await listPendingApprovers(subject) : [];
      return {
        required: subject.gate.required,
        approvals: subject.decisions.filter((d) => d.decision === 'approve').length,
        decisions: subject.decisions.map((d) => ({
          user_id: d.user_id,
          username: d.username,
          decision: d.decision,
          reason: d.reason,
          created: d.created,
        })),
        pending_approvers: pending.map((a) => ({ id: a.id, username: a.username, name: a.name })),
        can_decide: pending.some((a) => a.id === viewerId),
      };
    },
  };
}

export type ApprovalGates = ReturnType<typeof createApprovalGates>;
