import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import type { TaskWithTemplate } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { StopWaitingButton, lastTasksQuery, useTaskColumns } from '../../tasks/index.ts';

/** The project's last tasks, 20 per page; rows follow the websocket and new tasks appear by themselves. */
export function HistoryPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const tasks = useQuery(lastTasksQuery(projectId));
  const columns = useTaskColumns({ withTemplate: true, withRerun: false });
  return (
    <Stack spacing={1}>
      <Stack direction="row" justifyContent="flex-end" sx={{ '&:empty': { display: 'none' } }}>
        <StopWaitingButton projectId={projectId} tasks={tasks.data} />
      </Stack>
      <DataTable<TaskWithTemplate>
        aria-label={t('history.title')}
        columns={columns}
        rows={tasks.data}
        getRowKey={(task) => task.id}
        loading={tasks.isPending}
        error={tasks.error}
        emptyText={t('history.empty')}
      />
    </Stack>
  );
}
