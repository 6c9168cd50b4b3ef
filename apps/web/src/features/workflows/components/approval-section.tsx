import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { WORKFLOW_APPROVAL_REASON_MAX } from '@gantry/contract';
import type { WorkflowStep, WorkflowStepRun } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useDecideApproval } from '../api/workflows-queries.ts';
import type { ApprovalDecision } from '../api/workflows-queries.ts';
import { StepStatusChip } from './step-node.tsx';

interface ApprovalSectionProps {
  projectId: number;
  workflowId: number;
  runId: number;
  /** The run's approval steps with their definitions. */
  steps: readonly { step: WorkflowStep; run: WorkflowStepRun }[];
}

/** The run's approval gates: who decided what and why, who may still decide, and Approve/Reject for an approver. */
export function ApprovalSection({ projectId, workflowId, runId, steps }: ApprovalSectionProps) {
  const { t, i18n } = useTranslation();
  const [deciding, setDeciding] = useState<{ key: string; decision: ApprovalDecision } | null>(null);
  if (steps.length === 0) return null;
  return (
    <Stack spacing={2} component="section" aria-label={t('workflows.approvals')} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ fontSize: 16, fontWeight: 600 }}>
        {t('workflows.approvals')}
      </Typography>
      {steps.map(({ step, run }) => {
        const approval = run.approval;
        const label = step.name || step.key;
        return (
          <Paper
            key={step.key}
            variant="outlined"
            component="section"
            aria-label={t('workflows.approvalOf', { name: label })}
            sx={{ p: 2 }}
          >
            <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Box component="span" sx={{ fontWeight: 600, mr: 1 }}>
                {label}
              </Box>
              <StepStatusChip status={run.status} />
              {approval ? (
                <Box component="span" sx={{ color: 'text.secondary', fontSize: 14 }}>
                  {t('workflows.approvalCount', { approvals: approval.approvals, required: approval.required })}
                </Box>
              ) : null}
              <Box sx={{ flexGrow: 1 }} />
              {approval?.can_decide ? (
                <>
                  <Button
                    variant="contained"
                    color="success"
                    disableElevation
                    size="small"
                    startIcon={<CheckIcon />}
                    onClick={() => setDeciding({ key: step.key, decision: 'approve' })}
                    aria-label={t('workflows.approveNamed', { name: label })}
                  >
                    {t('workflows.approve')}
                  </Button>
                  <Button
                    variant="outlined"
                    color="error"
                    size="small"
                    startIcon={<CloseIcon />}
                    onClick={() => setDeciding({ key: step.key, decision: 'reject' })}
                    aria-label={t('workflows.rejectNamed', { name: label })}
                  >
                    {t('workflows.reject')}
                  </Button>
                </>
              ) : null}
            </Stack>
            {approval && approval.pending_approvers.length > 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('workflows.pendingApprovers', {
                  names: approval.pending_approvers.map((user) => user.name || user.username).join(', '),
                })}
              </Typography>
            ) : null}
            {approval && approval.decisions.length > 0 ? (
              <Box component="ul" sx={{ m: 0, mt: 1, pl: 2, fontSize: 14 }}>
                {approval.decisions.map((decision) => (
                  <li key={`${decision.username}-${decision.created}`}>
                    {t(decision.decision === 'approve' ? 'workflows.decisionApproved' : 'workflows.decisionRejected', {
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
          </Paper>
        );
      })}
      {deciding ? (
        <ReasonDialog
          projectId={projectId}
          workflowId={workflowId}
          runId={runId}
          stepKey={deciding.key}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
        />
      ) : null}
    </Stack>
  );
}

interface ReasonDialogProps {
  projectId: number;
  workflowId: number;
  runId: number;
  stepKey: string;
  decision: ApprovalDecision;
  onClose: () => void;
}

/** Asks for the reason every decision needs, then approves or rejects. */
function ReasonDialog({ projectId, workflowId, runId, stepKey, decision, onClose }: ReasonDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const decide = useDecideApproval(projectId, workflowId, runId);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    decide.mutate(
      { stepKey, decision, reason },
      {
        onSuccess: () => {
          snackbar.showSuccess(
            t(decision === 'approve' ? 'workflows.approved' : 'workflows.rejected', { name: stepKey }),
          );
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      open
      title={t(decision === 'approve' ? 'workflows.approveTitle' : 'workflows.rejectTitle', { name: stepKey })}
      submitLabel={t(decision === 'approve' ? 'workflows.approve' : 'workflows.reject')}
      onSubmit={submit}
      onClose={onClose}
      submitting={decide.isPending}
      error={decide.error ? getErrorMessage(decide.error) : null}
      maxWidth="sm"
    >
      <TextField
        label={t('workflows.reason')}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          setMissing(false);
        }}
        required
        multiline
        minRows={3}
        autoFocus
        error={missing}
        helperText={missing ? t('workflows.reasonRequired') : undefined}
        slotProps={{ htmlInput: { maxLength: WORKFLOW_APPROVAL_REASON_MAX } }}
      />
    </FormDialog>
  );
}
