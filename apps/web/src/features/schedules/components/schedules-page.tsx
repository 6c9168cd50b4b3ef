import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CommitIcon from '@mui/icons-material/Commit';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { Schedule } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import { useActiveColumn } from '../../../components/use-active-column.tsx';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { getCheckIntervalLabel } from '../../../lib/check-intervals.ts';
import { repositoriesQuery, workflowChoicesQuery } from '../../../lib/project-resources.ts';
import { schedulesResource, useSetScheduleActive } from '../api/schedules-queries.ts';
import { ScheduleDialog } from './schedule-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

interface SchedulesPageProps {
  /** The template's last tasks, shown when a row is expanded (the tasks area provides it). */
  renderLastTasks: (templateId: number) => ReactNode;
}

/** /schedule: the project's schedules; a row expands to its template's last 5 tasks. */
export function SchedulesPage({ renderLastTasks }: SchedulesPageProps) {
  const { t } = useTranslation();
  const list = useResourceList(schedulesResource, { linkPage: 'schedule' });
  const { projectId, canManage } = list;
  const repositories = useQuery(repositoriesQuery(projectId));
  const workflows = useQuery(workflowChoicesQuery(projectId));
  const workflowNames = new Map((workflows.data ?? []).map((workflow) => [workflow.id, workflow.name]));
  const activeColumn = useActiveColumn<Schedule, number>({
    header: t('schedules.active'),
    label: (schedule) => t('schedules.activeNamed', { name: schedule.name }),
    setActive: useSetScheduleActive(projectId),
    disabled: !canManage,
    optimistic: true,
    small: true,
  });
  const repositoryNames = new Map((repositories.data ?? []).map((repository) => [repository.id, repository.name]));

  const describeCron = (schedule: Schedule) => {
    if (schedule.repository_id === null) return null;
    return (
      <Tooltip title={t('schedules.onCommitHint', { interval: getCheckIntervalLabel(t, schedule.cron_format) })}>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'text.secondary', fontSize: 12 }}>
          <CommitIcon sx={{ fontSize: 16 }} />
          <span>
            {t('schedules.onCommitOf', {
              repository: repositoryNames.get(schedule.repository_id) ?? `#${schedule.repository_id}`,
            })}
          </span>
        </Stack>
      </Tooltip>
    );
  };

  const columns: Column<Schedule>[] = [
    activeColumn,
    {
      id: 'name',
      header: t('schedules.name'),
      fill: true,
      render: (schedule) => (
        <Box component="span" title={schedule.name} sx={{ fontWeight: 500 }}>
          {schedule.name}
        </Box>
      ),
    },
    {
      id: 'cron',
      header: t('schedules.cron'),
      hideBelow: 'sm',
      render: (schedule) => (
        <>
          <Box component="code" sx={{ fontSize: 13, whiteSpace: 'nowrap' }}>
            {schedule.cron_format}
          </Box>
          {describeCron(schedule)}
        </>
      ),
    },
    {
      id: 'template',
      header: t('schedules.template'),
      hideBelow: 'md',
      render: (schedule) => {
        const workflowName = schedule.workflow_id ? (workflowNames.get(schedule.workflow_id) ?? '') : '';
        return (
          <Link
            component={RouterLink}
            to={
              schedule.workflow_id
                ? paths.workflow(projectId, schedule.workflow_id)
                : paths.template(projectId, schedule.template_id ?? 0)
            }
            underline="hover"
            noWrap
            title={schedule.workflow_id ? t('schedules.workflowNamed', { name: workflowName }) : schedule.tpl_name}
            sx={{ display: 'block', maxWidth: 240 }}
          >
            {schedule.workflow_id ? t('schedules.workflowNamed', { name: workflowName }) : schedule.tpl_name}
          </Link>
        );
      },
    },
  ];

  return (
    <ResourceListPage
      list={list}
      columns={columns}
      dialog={ScheduleDialog}
      expansion={{
        render: (schedule) => (schedule.template_id === null ? null : renderLastTasks(schedule.template_id)),
        toggleLabel: (schedule, open) =>
          t(open ? 'schedules.hideTasks' : 'schedules.showTasks', { name: schedule.name }),
      }}
    />
  );
}
