import { useTranslation } from 'react-i18next';
import ReplayIcon from '@mui/icons-material/Replay';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { Permission, isTaskFinished, type TaskWithTemplate } from '@gantry/contract';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useRerunFailedHosts } from '../api/tasks-queries.ts';

/** Whether a task ended with hosts that failed or could not be reached. */
function hasFailedHosts(task: Pick<TaskWithTemplate, 'status' | 'host_recap'>): boolean {
  const recap = task.host_recap;
  return isTaskFinished(task.status) && recap !== null && recap.failed + recap.unreachable > 0;
}

/** Starts the template again for the failed and unreachable hosts of a finished ansible task; then opens the new task. */
export function RerunFailedHostsButton({
  projectId,
  task,
  onStarted,
}: {
  projectId: number;
  task: TaskWithTemplate;
  onStarted: (taskId: number) => void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const rerun = useRerunFailedHosts(projectId);
  if (!hasFailedHosts(task) || !access.can(Permission.runProjectTasks)) return null;
  const start = () =>
    rerun.mutate(task.id, {
      onSuccess: (created) => {
        snackbar.showSuccess(t('taskLog.rerunFailedHostsStarted', { id: created.id }));
        onStarted(created.id);
      },
      onError: snackbar.showFailure,
    });
  return (
    <Button
      size="small"
      variant="outlined"
      color="warning"
      startIcon={rerun.isPending ? <CircularProgress size={16} color="inherit" /> : <ReplayIcon />}
      disabled={rerun.isPending}
      onClick={start}
      sx={{ whiteSpace: 'nowrap', flex: 'none' }}
    >
      {t('taskLog.rerunFailedHosts')}
    </Button>
  );
}
