import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TaskWithTemplate } from '@gantry/contract';
import { ApprovalDecisionButtons, ApprovalHistory } from '../../../components/approvals/approval-decisions.tsx';
import type { Decision } from '../../../components/approvals/approval-decisions.tsx';
import { ApprovalReasonDialog } from '../../../components/approvals/approval-reason-dialog.tsx';
import { formatDate } from '../../../lib/format-date.ts';
import { taskApprovalQuery, useDecideTaskApproval } from '../api/tasks-queries.ts';

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
          {t('approvals.approvalCount', { approvals: data.approvals, required: data.required })}
        </Typography>
        {data.due ? (
          <Typography variant="body2" color="text.secondary">
            {t('taskLog.decideBy', { time: formatDate(data.due, { locale: i18n.language }) })}
          </Typography>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        {data.can_decide ? <ApprovalDecisionButtons onDecide={setDeciding} /> : null}
      </Stack>
      <ApprovalHistory approval={data} spacing={0.5} />
      {deciding ? (
        <DecisionDialog projectId={projectId} taskId={task.id} decision={deciding} onClose={() => setDeciding(null)} />
      ) : null}
    </Box>
  );
}

interface DecisionDialogProps {
  projectId: number;
  taskId: number;
  decision: Decision;
  onClose: () => void;
}

function DecisionDialog({ projectId, taskId, decision, onClose }: DecisionDialogProps) {
  const { t } = useTranslation();
  const decide = useDecideTaskApproval(projectId, taskId);
  return (
    <ApprovalReasonDialog
      decision={decision}
      title={t(decision === 'approve' ? 'taskLog.approveTitle' : 'taskLog.rejectTitle', { id: taskId })}
      doneMessage={t(decision === 'approve' ? 'taskLog.approved' : 'taskLog.rejected', { id: taskId })}
      decide={(reason, callbacks) => decide.mutate({ decision, reason }, callbacks)}
      submitting={decide.isPending}
      error={decide.error}
      onClose={onClose}
    />
  );
}
