import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TaskWithTemplate } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { DASH, formatDate, formatDuration } from '../../../lib/format-date.ts';
import { templateTasksQuery } from '../api/templates-queries.ts';
import { useTemplateRoute } from './template-layout.tsx';
import { TASK_LOG_PARAM, UNFINISHED_STATUSES, useHrefWithParam } from './template-helpers.ts';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';

/** The template page lists up to 200 of its newest tasks, 20 per page. */
export const TEMPLATE_TASK_LIMIT = 200;

/** What a task row says besides its number: the message, else the commit (hash and subject, shortened). */
export function describeTask(task: Pick<TaskWithTemplate, 'message' | 'commit_hash' | 'commit_message'>): string {
  if (task.message) return task.message;
  if (task.commit_hash) return `${task.commit_hash.slice(0, 10)} ${task.commit_message.slice(0, 50)}`.trim();
  return task.commit_message.slice(0, 50);
}

export function TemplateTasksTab() {
  const { t, i18n } = useTranslation();
  const { projectId, templateId } = useTemplateRoute();
  const hrefWithParam = useHrefWithParam();
  const tasks = useQuery({
    ...templateTasksQuery(projectId, templateId, TEMPLATE_TASK_LIMIT),
    refetchInterval: (query) => (query.state.data?.some((task) => UNFINISHED_STATUSES.includes(task.status)) ? 3000 : false),
  });

  const columns: Column<TaskWithTemplate>[] = [
    {
      id: 'task',
      header: t('templates.task'),
      render: (task) => {
        const text = describeTask(task);
        return (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', minWidth: 0 }}>
            <Link component={RouterLink} to={hrefWithParam(TASK_LOG_PARAM, task.id)} underline="hover" sx={{ fontWeight: 500 }}>
              #{task.id}
            </Link>
            {text ? (
              <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 360 }} title={text}>
                {text}
              </Typography>
            ) : null}
          </Stack>
        );
      },
    },
    { id: 'version', header: t('templates.version'), render: (task) => task.version ?? task.build_task?.version ?? DASH },
    { id: 'status', header: t('templates.status'), render: (task) => <TaskStatusChip status={task.status} /> },
    { id: 'user', header: t('templates.user'), render: (task) => task.user_name ?? DASH },
    { id: 'start', header: t('templates.start'), render: (task) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(task.start, { locale: i18n.language })}</span> },
    {
      id: 'duration',
      header: t('templates.duration'),
      render: (task) => <span style={{ whiteSpace: 'nowrap' }}>{task.start ? formatDuration([task.start, task.end], { locale: i18n.language }) : DASH}</span>,
    },
  ];

  return (
    <DataTable
      aria-label={t('templates.tasks')}
      columns={columns}
      rows={tasks.data}
      getRowKey={(task) => task.id}
      loading={tasks.isPending}
      error={tasks.error}
      emptyText={t('templates.noTasks')}
    />
  );
}
