import { z } from 'zod';
import { DateTime, Id, projectRefId, wireInteger } from './common.ts';
import { ProjectRoleSlug } from './permissions.ts';

/** Bounds of an approval gate (a workflow's approval step or a template that needs approval). */
export const APPROVAL_LIMITS = {
  approvers: 100,
  minTimeoutSeconds: 60,
  maxTimeoutSeconds: 30 * 24 * 3600,
  reason: 1000,
};

/**
 * Who must agree before something goes on, and what happens when nobody decides in time: N of the
 * listed users and holders of the roles approve, one rejection stops it.
 */
export const ApprovalGate = z.object({
  approvers: z.object(
    {
      user_ids: z.array(projectRefId('User')).max(APPROVAL_LIMITS.approvers).optional().default([]),
      roles: z.array(ProjectRoleSlug).max(4).optional().default([]),
    },
    { error: 'Approvers are required' },
  ),
  /** N of the M possible approvers must approve. */
  required: wireInteger({
    min: 1,
    max: APPROVAL_LIMITS.approvers,
    message: `Required approvals must be 1 to ${APPROVAL_LIMITS.approvers}`,
  })
    .optional()
    .default(1),
  starter_may_approve: z.boolean().optional().default(false),
  timeout_seconds: wireInteger({
    min: APPROVAL_LIMITS.minTimeoutSeconds,
    max: APPROVAL_LIMITS.maxTimeoutSeconds,
    message: `Approval timeout must be ${APPROVAL_LIMITS.minTimeoutSeconds} to ${APPROVAL_LIMITS.maxTimeoutSeconds} seconds`,
  })
    .optional()
    .default(24 * 3600),
  on_timeout: z
    .enum(['reject', 'approve'], { error: 'On timeout must be "reject" or "approve"' })
    .optional()
    .default('reject'),
});
export type ApprovalGate = z.output<typeof ApprovalGate>;
export type ApprovalGateInput = z.input<typeof ApprovalGate>;

/** The problems of a gate that need nothing but the gate itself; `where` names it in the messages. */
export function validateApprovalGate(gate: ApprovalGate, where: string): string[] {
  const users = new Set(gate.approvers.user_ids);
  if (users.size === 0 && gate.approvers.roles.length === 0) return [`${where} needs at least one approver`];
  // With roles, M is the number of members holding them, known only to the server.
  if (gate.approvers.roles.length === 0 && gate.required > users.size)
    return [`${where} requires ${gate.required} approvals but lists only ${users.size} approvers`];
  return [];
}

/** One approver's decision. */
export const ApprovalDecision = z.object({
  /** Null once the user has been deleted; the username stays as it was. */
  user_id: Id.nullable(),
  username: z.string(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string(),
  created: DateTime,
});
export type ApprovalDecision = z.output<typeof ApprovalDecision>;

export const Approver = z.object({ id: Id, username: z.string(), name: z.string() });
export type Approver = z.output<typeof Approver>;

/** Where an approval stands. */
export const ApprovalState = z.object({
  /** Approvals needed (N of the M approvers). */
  required: wireInteger(),
  approvals: wireInteger(),
  decisions: z.array(ApprovalDecision),
  /** Members who may still decide while it waits (empty once it has ended). */
  pending_approvers: z.array(Approver),
  /** Whether the caller may approve or reject now. */
  can_decide: z.boolean(),
});
export type ApprovalState = z.output<typeof ApprovalState>;

export const ApprovalBody = z.object(
  {
    reason: z
      .string({ error: 'Reason is required' })
      .trim()
      .min(1, 'Reason is required')
      .max(APPROVAL_LIMITS.reason, `Reason must be at most ${APPROVAL_LIMITS.reason} characters`),
  },
  { error: 'Reason is required' },
);
export type ApprovalBody = z.input<typeof ApprovalBody>;
