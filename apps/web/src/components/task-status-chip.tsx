import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import type { ChipProps } from '@mui/material/Chip';
import type { TaskStatus } from '@gantry/contract';

/** The theme colour of each status, shared by chips, dots and charts. */
export const TASK_STATUS_COLORS: Record<TaskStatus, NonNullable<ChipProps['color']>> = {
  waiting: 'default',
  waiting_approval: 'warning',
  starting: 'info',
  waiting_confirmation: 'warning',
  confirmed: 'info',
  rejected: 'default',
  running: 'primary',
  stopping: 'warning',
  stopped: 'default',
  success: 'success',
  error: 'error',
};

export function TaskStatusChip({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      label={t(`taskStatus.${status}`)}
      color={TASK_STATUS_COLORS[status]}
      variant={status === 'running' ? 'filled' : 'outlined'}
    />
  );
}
