import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FailingHost, HostLastRun, ProjectHost } from '@gantry/contract';
import { ChoiceToggle } from '../../../components/choice-toggle.tsx';
import { DataTable, type Column, type TableRows } from '../../../components/data-table.tsx';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { paths } from '../../../lib/paths.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { failingHostsQuery, projectHostsQuery } from '../api/tasks-queries.ts';
import { TaskDate, TaskLink } from './task-cells.tsx';

const PERIODS = [7, 30, 90, 365] as const;

/** One template's newest task on a host: template, task link, status and when. */
function LastRun({ projectId, run }: { projectId: number; run: HostLastRun }) {
  const { t } = useTranslation();
  const hostFailed = run.failed + run.unreachable > 0;
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}
      data-template={run.template_name}
    >
      <Link
        component={RouterLink}
        to={paths.template(projectId, run.template_id)}
        underline="hover"
        color="text.primary"
        sx={{ minWidth: 0, overflowWrap: 'anywhere' }}
      >
        {run.template_name}
      </Link>
      <TaskLink taskId={run.task_id} />
      <TaskStatusChip status={run.status} />
      {hostFailed ? (
        <Typography variant="caption" color="error">
          {run.unreachable > 0 ? t('taskLog.hostStatus.unreachable') : t('taskLog.hostStatus.failed')}
        </Typography>
      ) : null}
      <Typography variant="caption" color="text.secondary">
        <TaskDate value={run.time} />
      </Typography>
    </Stack>
  );
}

/** A host's name in a table: monospace, and broken anywhere rather than widening the table. */
function HostName({ host }: { host: string }) {
  return (
    <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>
      {host}
    </Box>
  );
}

interface HostsSectionProps<T extends { host: string }> {
  /** The heading's id, which names the section. */
  titleId: string;
  title: string;
  /** At the end of the heading's row. */
  actions?: ReactNode;
  /** Between the heading and the table. */
  notice?: ReactNode;
  columns: Column<T>[];
  rows: TableRows<T>;
  emptyText: string;
}

/** One of the page's sections: a heading and a table of hosts, one row a host. */
function HostsSection<T extends { host: string }>({
  titleId,
  title,
  actions,
  notice,
  columns,
  rows,
  emptyText,
}: HostsSectionProps<T>) {
  return (
    <Stack spacing={1} component="section" aria-labelledby={titleId}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mr: 'auto' }}>
          {title}
        </Typography>
        {actions}
      </Stack>
      {notice}
      <DataTable<T>
        aria-label={title}
        columns={columns}
        query={rows}
        getRowKey={(row) => row.host}
        emptyText={emptyText}
      />
    </Stack>
  );
}

function FailingHosts({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const failing = useQuery(failingHostsQuery(projectId, days));
  const columns: Column<FailingHost>[] = [
    { id: 'host', header: t('hostsPage.host'), fill: true, render: (row) => <HostName host={row.host} /> },
    { id: 'failures', header: t('hostsPage.failures'), align: 'right', render: (row) => row.failures },
    {
      id: 'last',
      header: t('hostsPage.lastFailure'),
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }}>
          <TaskLink taskId={row.last_task_id} />
          <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            <TaskDate value={row.last_time} />
          </Typography>
        </Stack>
      ),
    },
  ];
  return (
    <HostsSection
      titleId="failing-hosts-title"
      title={t('hostsPage.failingTitle')}
      actions={
        <ChoiceToggle
          label={t('hostsPage.period')}
          value={days}
          choices={PERIODS.map((period) => ({ value: period, label: t('hostsPage.days', { days: period }) }))}
          onChange={setDays}
        />
      }
      columns={columns}
      rows={{ data: failing.data?.hosts, isPending: failing.isPending, error: failing.error }}
      emptyText={t('hostsPage.noFailures')}
    />
  );
}

/** The hosts of the project's ansible tasks: which failed most lately, and each one's last run per template. */
export function HostsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const hosts = useQuery(projectHostsQuery(projectId));
  const columns: Column<ProjectHost>[] = [
    { id: 'host', header: t('hostsPage.host'), width: '30%', render: (row) => <HostName host={row.host} /> },
    {
      id: 'runs',
      header: t('hostsPage.lastRuns'),
      fill: true,
      render: (row) => (
        <Stack spacing={0.5}>
          {row.runs.map((run) => (
            <LastRun key={run.template_id} projectId={projectId} run={run} />
          ))}
        </Stack>
      ),
    },
  ];
  return (
    <Stack spacing={3}>
      <FailingHosts projectId={projectId} />
      <HostsSection
        titleId="all-hosts-title"
        title={t('hostsPage.allTitle')}
        notice={hosts.data?.truncated ? <Alert severity="info">{t('hostsPage.truncated')}</Alert> : null}
        columns={columns}
        rows={{ data: hosts.data?.hosts, isPending: hosts.isPending, error: hosts.error }}
        emptyText={t('hostsPage.empty')}
      />
    </Stack>
  );
}
