import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import type { WorkflowSummary } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { NameLink } from '../../../components/name-link.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { paths } from '../../../lib/paths.ts';
import { workflowsResource } from '../api/workflows-queries.ts';

/** /workflows: the project's workflows; a name opens the workflow's graph, its runs and its versions. */
export function WorkflowsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const list = useResourceList(workflowsResource);
  const { projectId } = list;

  const columns: Column<WorkflowSummary>[] = [
    {
      id: 'name',
      header: t('workflows.name'),
      render: (workflow) => <NameLink to={paths.workflow(projectId, workflow.id)} name={workflow.name} />,
    },
    {
      id: 'description',
      header: t('workflows.description'),
      fill: true,
      hideBelow: 'md',
      render: (workflow) => (
        <Box component="span" title={workflow.description} sx={{ color: 'text.secondary' }}>
          {workflow.description}
        </Box>
      ),
    },
    { id: 'steps', header: t('workflows.steps'), width: 80, align: 'right', render: (workflow) => workflow.steps },
    {
      id: 'revision',
      header: t('workflows.revision'),
      width: 96,
      align: 'right',
      hideBelow: 'sm',
      render: (workflow) => workflow.revision,
    },
    {
      id: 'updated',
      header: t('workflows.updated'),
      hideBelow: 'sm',
      render: (workflow) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDate(workflow.updated, { locale: i18n.language })}
        </Box>
      ),
    },
  ];

  return (
    <ResourceListPage
      list={list}
      onCreate={() => void navigate(paths.workflow(projectId, 'new'))}
      columns={columns}
      actions={{ onEdit: (workflow) => void navigate(paths.workflow(projectId, workflow.id)) }}
    />
  );
}
