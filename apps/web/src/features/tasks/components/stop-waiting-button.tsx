import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import { Permission } from '@gantry/contract';
import type { Task } from '@gantry/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useStopWaitingTasks } from '../api/tasks-queries.ts';

interface StopWaitingButtonProps {
  projectId: number;
  /** The tasks the page shows: the button appears only while one of them is waiting. */
  tasks: readonly Pick<Task, 'status'>[] | undefined;
  /** Limits the stop to one template's queue; the whole project's queue otherwise. */
  templateId?: number;
}

/** Empties a flooded queue in one go (a webhook storm can queue hundreds of tasks), after a confirmation. */
export function StopWaitingButton({ projectId, tasks, templateId }: StopWaitingButtonProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const stopWaiting = useStopWaitingTasks(projectId);
  const [confirming, setConfirming] = useState(false);
  const waiting = tasks?.filter((task) => task.status === 'waiting').length ?? 0;
  if (!access.can(Permission.runProjectTasks) || (waiting === 0 && !confirming)) return null;

  const stop = () =>
    stopWaiting.mutate(templateId, {
      onSuccess: ({ stopped }) => snackbar.showSuccess(t('stopWaiting.done', { number: stopped })),
      onError: snackbar.showFailure,
    });

  return (
    <>
      <Button
        color="error"
        variant="outlined"
        size="small"
        startIcon={<StopCircleOutlinedIcon />}
        disabled={stopWaiting.isPending}
        onClick={() => setConfirming(true)}
      >
        {t('stopWaiting.button')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('stopWaiting.title')}
        message={t('stopWaiting.message', { number: waiting })}
        confirmLabel={t('stopWaiting.confirm')}
        onConfirm={stop}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
