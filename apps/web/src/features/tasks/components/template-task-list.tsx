import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import type { TaskWithTemplate } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import { templateTasksQuery } from '../api/tasks-queries.ts';
import { StopWaitingButton } from './stop-waiting-button.tsx';
import { useTaskColumns } from './task-columns.tsx';

/**
 * The tasks of one template, newest first (the last 200, 20 per page): id with message or commit
 * message, version, status, user, start, duration and re-run. Rows follow the websocket.
 */
export function TemplateTaskList({ projectId, templateId }: { projectId: number; templateId: number }) {
  const { t } = useTranslation();
  const tasks = useQuery(templateTasksQuery(projectId, templateId));
  const columns = useTaskColumns({ withTemplate: false, withRerun: true });
  return (
    <Stack spacing={1}>
      <Stack direction="row" justifyContent="flex-end" sx={{ '&:empty': { display: 'none' } }}>
        <StopWaitingButton projectId={projectId} tasks={tasks.data} templateId={templateId} />
      </Stack>
      <DataTable<TaskWithTemplate>
        aria-label={t('taskList.title')}
        columns={columns}
        query={tasks}
        emptyText={t('taskList.empty')}
      />
    </Stack>
  );
}
