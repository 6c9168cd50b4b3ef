import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { WorkflowRevisionSummary } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { workflowVersionsQuery, workflowYamlQuery } from '../api/workflows-queries.ts';

interface TabProps {
  projectId: number;
  workflowId: number;
}

/** The current revision as the YAML file `gantry workflow apply` takes. */
export function WorkflowYamlTab({ projectId, workflowId }: TabProps) {
  const { t } = useTranslation();
  const yaml = useQuery(workflowYamlQuery(projectId, workflowId));
  if (yaml.error) return <Alert severity="error">{getErrorMessage(yaml.error)}</Alert>;
  if (yaml.data === undefined) return <CircularProgress aria-label="…" />;
  return (
    <Box
      component="pre"
      aria-label={t('workflows.tabs.yaml')}
      sx={{
        m: 0,
        p: 2,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'background.default',
        fontSize: 13,
        overflow: 'auto',
        maxHeight: 600,
      }}
    >
      {yaml.data}
    </Box>
  );
}

/** Every saved revision, newest first, with who saved it and when. */
export function WorkflowVersionsTab({ projectId, workflowId }: TabProps) {
  const { t, i18n } = useTranslation();
  const versions = useQuery(workflowVersionsQuery(projectId, workflowId));
  const columns: Column<WorkflowRevisionSummary>[] = [
    { id: 'number', header: t('workflows.revision'), width: 96, render: (version) => version.number },
    {
      id: 'user',
      header: t('workflows.savedBy'),
      fill: true,
      render: (version) => version.username ?? '—',
    },
    {
      id: 'created',
      header: t('workflows.savedAt'),
      render: (version) => formatDate(version.created, { locale: i18n.language }),
    },
  ];
  return (
    <DataTable
      aria-label={t('workflows.tabs.versions')}
      columns={columns}
      query={versions}
      getRowKey={(version) => version.number}
      emptyText={t('workflows.noVersions')}
    />
  );
}
