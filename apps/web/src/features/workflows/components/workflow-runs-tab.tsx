import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import type { WorkflowRun } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { formatDate, formatDuration } from '../../../lib/format-date.ts';
import { workflowRunsQuery } from '../api/workflows-queries.ts';
import { StepStatusChip } from './step-node.tsx';
import { WorkflowRunLink } from './workflow-run-link.tsx';
import { WorkflowRunStats } from './workflow-run-stats.tsx';

/** The workflow's runs per day, then its newest runs; a running one is read again until it ends. */
export function WorkflowRunsTab({ projectId, workflowId }: { projectId: number; workflowId: number }) {
  const { t, i18n } = useTranslation();
  const runs = useQuery(workflowRunsQuery(projectId, workflowId));
  const columns: Column<WorkflowRun>[] = [
    {
      id: 'id',
      header: t('workflows.runNumber'),
      width: 96,
      render: (run) => (
        <WorkflowRunLink projectId={projectId} workflowId={workflowId} runId={run.id}>
          {t('workflows.runLabel', { id: run.id })}
        </WorkflowRunLink>
      ),
    },
    { id: 'status', header: t('workflows.runStatus'), render: (run) => <StepStatusChip status={run.status} /> },
    { id: 'revision', header: t('workflows.revision'), hideBelow: 'sm', render: (run) => run.revision },
    {
      id: 'start',
      header: t('workflows.started'),
      fill: true,
      render: (run) => formatDate(run.start, { locale: i18n.language }),
    },
    {
      id: 'duration',
      header: t('workflows.duration'),
      hideBelow: 'sm',
      render: (run) => formatDuration([run.start, run.end], { locale: i18n.language }),
    },
  ];
  return (
    <Stack spacing={2}>
      <WorkflowRunStats
        projectId={projectId}
        workflowId={workflowId}
        endedRuns={runs.data?.filter((run) => run.status !== 'running').length}
      />
      <DataTable
        aria-label={t('workflows.tabs.runs')}
        columns={columns}
        query={runs}
        emptyText={t('workflows.noRuns')}
      />
    </Stack>
  );
}
