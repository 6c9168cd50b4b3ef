import { useState } from 'react';
import type { FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { APPROVAL_LIMITS } from '@gantry/contract';
import type { TaskWithTemplate } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { taskApprovalQuery, useDecideTaskApproval } from '../api/tasks-queries.ts';

type Decision = 'approve' | 'reject';

/**
 * The approval of a task whose template needs one: where it stands (N of M, until when), who decided
 * what and why, who may still decide, and Approve/Reject for an approver the server allows.
 */
export function TaskApprovalPanel({ projectId, task }: { projectId: number; task: TaskWithTemplate }) {
  const { t, i18n } = useTranslation();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const approval = useQuery(taskApprovalQuery(projectId, task.id, task.status));
  const data = approval.data;
  if (!data) return null;
  return (
    <Box component="section" aria-label={t('taskLog.approval')} sx={{ mt: 1 }}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t(`taskLog.approvalState.${data.state}`)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('taskLog.approvalCount', { approvals: data.approvals, required: data.required })}
        </Typography>
        {data.due ? (
          <Typography variant="body2" color="text.secondary">
            {t('taskLog.decideBy', { time: formatDate(data.due, { locale: i18n.language }) })}
          </Typography>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        {data.can_decide ? (
          <>
            <Button
              variant="contained"
              color="success"
              disableElevation
              size="small"
              startIcon={<CheckIcon />}
              onClick={() => setDeciding('approve')}
            >
              {t('taskLog.approve')}
            </Button>
            <Button
              variant="outlined"
              color="error"
              size="small"
              startIcon={<CloseIcon />}
              onClick={() => setDeciding('reject')}
            >
              {t('taskLog.rejectApproval')}
            </Button>
          </>
        ) : null}
      </Stack>
      {data.pending_approvers.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('taskLog.pendingApprovers', {
            names: data.pending_approvers.map((user) => user.name || user.username).join(', '),
          })}
        </Typography>
      ) : null}
      {data.decisions.length > 0 ? (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2, fontSize: 14 }} aria-label={t('taskLog.decisions')}>
          {data.decisions.map((decision) => (
            <li key={`${decision.username}-${decision.created}`}>
              {t(decision.decision === 'approve' ? 'taskLog.decisionApproved' : 'taskLog.decisionRejected', {
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
      {deciding ? (
        <ReasonDialog projectId={projectId} taskId={task.id} decision={deciding} onClose={() => setDeciding(null)} />
      ) : null}
    </Box>
  );
}

interface ReasonDialogProps {
  projectId: number;
  taskId: number;
  decision: Decision;
  onClose: () => void;
}

/** Asks for the reason every decision needs, then approves or rejects. */
function ReasonDialog({ projectId, taskId, decision, onClose }: ReasonDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const decide = useDecideTaskApproval(projectId, taskId);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    decide.mutate(
      { decision, reason },
      {
        onSuccess: () => {
          snackbar.showSuccess(t(decision === 'approve' ? 'taskLog.approved' : 'taskLog.rejected', { id: taskId }));
          onClose();
        },
      },
    );
  };
  return (
    <FormDialog
      open
      title={t(decision === 'approve' ? 'taskLog.approveTitle' : 'taskLog.rejectTitle', { id: taskId })}
      submitLabel={t(decision === 'approve' ? 'taskLog.approve' : 'taskLog.rejectApproval')}
      onSubmit={submit}
      onClose={onClose}
      submitting={decide.isPending}
      error={decide.error ? getErrorMessage(decide.error) : null}
      maxWidth="sm"
    >
      <TextField
        label={t('taskLog.reason')}
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
        helperText={missing ? t('taskLog.reasonRequired') : undefined}
        slotProps={{ htmlInput: { maxLength: APPROVAL_LIMITS.reason } }}
      />
    </FormDialog>
  );
}
