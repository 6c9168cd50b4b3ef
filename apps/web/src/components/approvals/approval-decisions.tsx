import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ApprovalDecision, ApprovalState } from '@gantry/contract';
import { formatDate } from '../../lib/format-date.ts';

export type Decision = ApprovalDecision['decision'];

interface DecisionButtonsProps {
  onDecide: (decision: Decision) => void;
  /** What is decided, for the buttons' accessible names where a page shows several gates. */
  name?: string;
}

/** Approve and Reject, for an approver the server allows to decide. */
export function ApprovalDecisionButtons({ onDecide, name }: DecisionButtonsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Button
        variant="contained"
        color="success"
        disableElevation
        size="small"
        startIcon={<CheckIcon />}
        onClick={() => onDecide('approve')}
        aria-label={name === undefined ? undefined : t('approvals.approveNamed', { name })}
      >
        {t('approvals.approve')}
      </Button>
      <Button
        variant="outlined"
        color="error"
        size="small"
        startIcon={<CloseIcon />}
        onClick={() => onDecide('reject')}
        aria-label={name === undefined ? undefined : t('approvals.rejectNamed', { name })}
      >
        {t('approvals.reject')}
      </Button>
    </>
  );
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
