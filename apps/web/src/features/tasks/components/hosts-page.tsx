import { useState } from 'react';
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
import { DataTable, type Column } from '../../../components/data-table.tsx';
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

function FailingHosts({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const [days, setDays] = useState<number>(30);
  const failing = useQuery(failingHostsQuery(projectId, days));
  const columns: Column<FailingHost>[] = [
    {
      id: 'host',
      header: t('hostsPage.host'),
      fill: true,
      render: (row) => (
        <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {row.host}
        </Box>
      ),
    },
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
    <Stack spacing={1} component="section" aria-labelledby="failing-hosts-title">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id="failing-hosts-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600, mr: 'auto' }}>
          {t('hostsPage.failingTitle')}
        </Typography>
        <ChoiceToggle
          label={t('hostsPage.period')}
          value={days}
          choices={PERIODS.map((period) => ({ value: period, label: t('hostsPage.days', { days: period }) }))}
          onChange={setDays}
        />
      </Stack>
      <DataTable<FailingHost>
        aria-label={t('hostsPage.failingTitle')}
        columns={columns}
        query={{ data: failing.data?.hosts, isPending: failing.isPending, error: failing.error }}
        getRowKey={(row) => row.host}
        emptyText={t('hostsPage.noFailures')}
      />
    </Stack>
  );
}

/** The hosts of the project's ansible tasks: which failed most lately, and each one's last run per template. */
export function HostsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const hosts = useQuery(projectHostsQuery(projectId));
  const columns: Column<ProjectHost>[] = [
    {
      id: 'host',
      header: t('hostsPage.host'),
      width: '30%',
      render: (row) => (
        <Box component="span" sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {row.host}
        </Box>
      ),
    },
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
      <Stack spacing={1} component="section" aria-labelledby="all-hosts-title">
        <Typography id="all-hosts-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('hostsPage.allTitle')}
        </Typography>
        {hosts.data?.truncated ? <Alert severity="info">{t('hostsPage.truncated')}</Alert> : null}
        <DataTable<ProjectHost>
          aria-label={t('hostsPage.allTitle')}
          columns={columns}
          query={{ data: hosts.data?.hosts, isPending: hosts.isPending, error: hosts.error }}
          getRowKey={(row) => row.host}
          emptyText={t('hostsPage.empty')}
        />
      </Stack>
    </Stack>
  );
}
