import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ApprovalDecision, ApprovalState } from '@gantry/contract';
import { formatDate } from '../../lib/format-date.ts';

export type Decision = ApprovalDecision['decision'];

/** Each decision's button: approving is the emphasised one. */
const DECISION_BUTTONS = {
  approve: { variant: 'contained', color: 'success', icon: <CheckIcon /> },
  reject: { variant: 'outlined', color: 'error', icon: <CloseIcon /> },
} as const;

interface DecisionButtonsProps {
  onDecide: (decision: Decision) => void;
  /** What is decided, for the buttons' accessible names where a page shows several gates. */
  name?: string;
}

/** Approve and Reject, for an approver the server allows to decide. */
export function ApprovalDecisionButtons({ onDecide, name }: DecisionButtonsProps) {
  const { t } = useTranslation();
  return (['approve', 'reject'] as const).map((decision) => (
    <Button
      key={decision}
      variant={DECISION_BUTTONS[decision].variant}
      color={DECISION_BUTTONS[decision].color}
      disableElevation
      size="small"
      startIcon={DECISION_BUTTONS[decision].icon}
      onClick={() => onDecide(decision)}
      aria-label={name === undefined ? undefined : t(`approvals.${decision}Named`, { name })}
    >
      {t(`approvals.${decision}`)}
    </Button>
  ));
}

/** Who may still decide, then who decided what, when and why; `spacing` is the gap above each part. */
export function ApprovalHistory({ approval, spacing }: { approval: ApprovalState; spacing: number }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {approval.pending_approvers.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: spacing }}>
          {t('approvals.pendingApprovers', {
            names: approval.pending_approvers.map((user) => user.name || user.username).join(', '),
          })}
        </Typography>
      ) : null}
      {approval.decisions.length > 0 ? (
        <Box component="ul" sx={{ m: 0, mt: spacing, pl: 2, fontSize: 14 }} aria-label={t('approvals.decisions')}>
          {approval.decisions.map((decision) => (
            <li key={`${decision.username}-${decision.created}`}>
              {t(decision.decision === 'approve' ? 'approvals.decisionApproved' : 'approvals.decisionRejected', {
                user: decision.username,
                time: formatDate(decision.created, { locale: i18n.language }),
              })}
              {': '}
              <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {decision.reason}
              </Box>
            </li>
          ))}
        </Box>
      ) : null}
    </>
  );
}
