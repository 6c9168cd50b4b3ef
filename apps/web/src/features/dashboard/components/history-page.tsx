import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TaskWithTemplate } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { lastTasksQuery, useTaskColumns } from '../../tasks/index.ts';

/** The project's last tasks, 20 per page; rows follow the websocket and new tasks appear by themselves. */
export function HistoryPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const tasks = useQuery(lastTasksQuery(projectId));
  const columns = useTaskColumns({ withTemplate: true, withRerun: false });
  return (
    <DataTable<TaskWithTemplate>
      aria-label={t('history.title')}
      columns={columns}
      rows={tasks.data}
      getRowKey={(task) => task.id}
      loading={tasks.isPending}
      error={tasks.error}
      emptyText={t('history.empty')}
    />
  );
}
