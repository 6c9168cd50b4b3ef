import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import type { ActiveTask } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { TablePage } from '../../../components/table-page.tsx';
import { DASH } from '../../../lib/format-date.ts';
import { storage } from '../../../lib/storage.ts';
import { activeTasksQuery, useStopActiveTask } from '../api/active-tasks-queries.ts';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { paths } from '../../../lib/paths.ts';

export function ActiveTasksPage() {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const tasks = useQuery(activeTasksQuery);
  const stop = useStopActiveTask();

  const lastProjectId = storage.getLastProjectId();

  const columns: Column<ActiveTask>[] = [
    {
      id: 'task',
      header: t('activeTasks.task'),
      width: 100,
      render: (task) => (
        <Link component={RouterLink} to={paths.taskLog(task.project_id, task.task_id)} underline="hover">
          #{task.task_id}
        </Link>
      ),
    },
    { id: 'project', header: t('activeTasks.project'), render: (task) => task.project_name ?? `#${task.project_id}` },
    { id: 'username', header: t('activeTasks.username'), render: (task) => task.username ?? DASH },
    { id: 'status', header: t('activeTasks.status'), render: (task) => <TaskStatusChip status={task.status} /> },
    {
      id: 'location',
      header: t('activeTasks.location'),
      render: (task) =>
        task.runner_name
          ? `${t(`activeTasks.locations.${task.location}`)} · ${task.runner_name}`
          : t(`activeTasks.locations.${task.location}`),
    },
    {
      id: 'actions',
      header: '',
      align: 'right',
      width: 120,
      render: (task) => (
        <Button
          size="small"
          color="error"
          startIcon={<StopCircleOutlinedIcon />}
          disabled={task.status === 'stopping' || (stop.isPending && stop.variables === task.task_id)}
          onClick={() => stop.mutate(task.task_id, { onError: snackbar.showFailure })}
        >
          {t('activeTasks.stop')}
        </Button>
      ),
    },
  ];

  return (
    <TablePage
      section="activeTasks"
      backTo={paths.back(lastProjectId)}
      columns={columns}
      query={tasks}
      getRowKey={(task) => task.task_id}
    />
  );
}
