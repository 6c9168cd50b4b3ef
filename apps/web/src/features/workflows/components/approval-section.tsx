import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { WorkflowStep, WorkflowStepRun } from '@gantry/contract';
import { ApprovalDecisionButtons, ApprovalHistory } from '../../../components/approvals/approval-decisions.tsx';
import type { Decision } from '../../../components/approvals/approval-decisions.tsx';
import { ApprovalReasonDialog } from '../../../components/approvals/approval-reason-dialog.tsx';
import { useDecideApproval } from '../api/workflows-queries.ts';
import { RunStepCard, RunStepsSection } from './run-steps-section.tsx';
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
  const { t } = useTranslation();
  const [deciding, setDeciding] = useState<{ key: string; decision: Decision } | null>(null);
  if (steps.length === 0) return null;
  return (
    <RunStepsSection title={t('workflows.approvals')}>
      {steps.map(({ step, run }) => {
        const approval = run.approval;
        const label = step.name || step.key;
        return (
          <RunStepCard key={step.key} label={t('workflows.approvalOf', { name: label })}>
            <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Box component="span" sx={{ fontWeight: 600, mr: 1 }}>
                {label}
              </Box>
              <StepStatusChip status={run.status} />
              {approval ? (
                <Box component="span" sx={{ color: 'text.secondary', fontSize: 14 }}>
                  {t('approvals.approvalCount', { approvals: approval.approvals, required: approval.required })}
                </Box>
              ) : null}
              <Box sx={{ flexGrow: 1 }} />
              {approval?.can_decide ? (
                <ApprovalDecisionButtons
                  onDecide={(decision) => setDeciding({ key: step.key, decision })}
                  name={label}
                />
              ) : null}
            </Stack>
            {approval ? <ApprovalHistory approval={approval} spacing={1} /> : null}
          </RunStepCard>
        );
      })}
      {deciding ? (
        <DecisionDialog
          projectId={projectId}
          workflowId={workflowId}
          runId={runId}
          stepKey={deciding.key}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
        />
      ) : null}
    </RunStepsSection>
  );
}

interface DecisionDialogProps {
  projectId: number;
  workflowId: number;
  runId: number;
  stepKey: string;
  decision: Decision;
  onClose: () => void;
}

function DecisionDialog({ projectId, workflowId, runId, stepKey, decision, onClose }: DecisionDialogProps) {
  const { t } = useTranslation();
  const decide = useDecideApproval(projectId, workflowId, runId);
  return (
    <ApprovalReasonDialog
      decision={decision}
      title={t(decision === 'approve' ? 'workflows.approveTitle' : 'workflows.rejectTitle', { name: stepKey })}
      doneMessage={t(decision === 'approve' ? 'workflows.approved' : 'workflows.rejected', { name: stepKey })}
      decide={(reason, callbacks) => decide.mutate({ stepKey, decision, reason }, callbacks)}
      submitting={decide.isPending}
      error={decide.error}
      onClose={onClose}
    />
  );
}
