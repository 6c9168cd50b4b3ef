import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { ChipProps } from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { WorkflowRunStatus, WorkflowStep, WorkflowStepRunStatus } from '@gantry/contract';

const KIND_ICONS = {
  template: <PlaylistPlayIcon fontSize="small" />,
  approval: <HowToRegIcon fontSize="small" />,
  wait: <HourglassEmptyIcon fontSize="small" />,
};

/** The theme colour of each step and run status (chips and the step's border). */
export const STEP_STATUS_COLORS: Record<WorkflowStepRunStatus | WorkflowRunStatus, NonNullable<ChipProps['color']>> = {
  pending: 'default',
  starting: 'info',
  running: 'primary',
  waiting_approval: 'warning',
  success: 'success',
  failed: 'error',
  skipped: 'default',
  stopped: 'default',
};

export function StepStatusChip({ status }: { status: WorkflowStepRunStatus | WorkflowRunStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`workflows.status.${status}`)}
      color={STEP_STATUS_COLORS[status]}
      variant={status === 'running' || status === 'waiting_approval' ? 'filled' : 'outlined'}
      sx={{ minWidth: 0, flexShrink: 1 }}
    />
  );
}

/** One line saying what a step does: its template, its wait or its approvers. */
export function useStepSummary(templateNames: ReadonlyMap<number, string>) {
  const { t } = useTranslation();
  return (step: WorkflowStep): string => {
    if (step.kind === 'template') return templateNames.get(step.template_id) ?? `#${step.template_id}`;
    if (step.kind === 'wait') return t('workflows.waitSummary', { count: step.seconds });
    return t('workflows.approvalSummary', { count: step.required });
  };
}

/** A step's box in the graph: its kind, key and summary, then whatever the page adds (a run's status). */
export function StepNode({ step, summary, children }: { step: WorkflowStep; summary: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ width: '100%', minWidth: 0 }}>
      <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Box sx={{ display: 'flex', color: 'text.secondary' }} title={t(`workflows.stepKinds.${step.kind}`)}>
          {KIND_ICONS[step.kind]}
        </Box>
        <Box
          component="span"
          title={step.name || step.key}
          sx={{
            fontWeight: 600,
            fontSize: 14,
            minWidth: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
        >
          {step.name || step.key}
        </Box>
        {step.join === 'any' ? (
          <Box component="span" sx={{ fontSize: 11, color: 'text.secondary', flexShrink: 0 }}>
            {t('workflows.joinAnyShort')}
          </Box>
        ) : null}
      </Stack>
      <Box
        component="div"
        title={summary}
        sx={{
          fontSize: 12,
          color: 'text.secondary',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {summary}
      </Box>
      {children}
    </Box>
  );
}
