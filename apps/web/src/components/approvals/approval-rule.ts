import type { ApprovalGate, ProjectRoleSlug } from '@gantry/contract';

/** Who approves, how many of them, and what a timeout decides, as a form edits it: numbers are text while typed. */
export interface ApprovalRule {
  user_ids: number[];
  roles: ProjectRoleSlug[];
  required: string;
  timeout_seconds: string;
  on_timeout: 'reject' | 'approve';
  starter_may_approve: boolean;
}

export const DEFAULT_APPROVAL_RULE: ApprovalRule = {
  user_ids: [],
  roles: [],
  required: '1',
  timeout_seconds: String(24 * 3600),
  on_timeout: 'reject',
  starter_may_approve: false,
};

/** A stored gate as the form edits it. */
export function toApprovalRule(gate: ApprovalGate): ApprovalRule {
  return {
    user_ids: [...gate.approvers.user_ids],
    roles: [...gate.approvers.roles],
    required: String(gate.required),
    timeout_seconds: String(gate.timeout_seconds),
    on_timeout: gate.on_timeout,
    starter_may_approve: gate.starter_may_approve,
  };
}
