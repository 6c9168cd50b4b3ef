import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { Integration } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { NameLink } from '../../../components/name-link.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { DASH } from '../../../lib/format-date.ts';
import { templatesQuery, workflowChoicesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { integrationsQuery, loadIntegrationRefs, useDeleteIntegration } from '../api/integrations-queries.ts';
import { AliasList } from './alias-list.tsx';
import { IntegrationDialog } from './integration-dialog.tsx';
import { INTEGRATION_ACTIONS } from './integration-access.ts';
import { paths } from '../../../lib/paths.ts';

/** /integrations: the project's incoming webhooks and its project-wide alias URLs. */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const integrations = useQuery(integrationsQuery(projectId));
  const templates = useQuery(templatesQuery(projectId));
  const workflows = useQuery(workflowChoicesQuery(projectId));
  const editDialog = useDialogState<Integration>();
  const deletion = useItemDelete<Integration>({
    projectId,
    texts: deleteTextsOf('integrations'),
    remove: useDeleteIntegration(projectId),
    loadRefs: (id) => loadIntegrationRefs(projectId, id),
  });
  const canManage = access.can(INTEGRATION_ACTIONS);
  const templateNames = new Map((templates.data ?? []).map((template) => [template.id, template.name]));
  const workflowNames = new Map((workflows.data ?? []).map((workflow) => [workflow.id, workflow.name]));

  const columns: Column<Integration>[] = [
    {
      id: 'name',
      header: t('integrations.name'),
      render: (integration) => <NameLink to={paths.integration(projectId, integration.id)} name={integration.name} />,
    },
    {
      id: 'template',
      header: t('integrations.template'),
      render: (integration) =>
        integration.workflow_id ? (
          <Link component={RouterLink} to={paths.workflow(projectId, integration.workflow_id)} underline="hover">
            {t('integrations.workflowNamed', {
              name: workflowNames.get(integration.workflow_id) ?? `#${integration.workflow_id}`,
            })}
          </Link>
        ) : (
          <Link component={RouterLink} to={paths.template(projectId, integration.template_id ?? 0)} underline="hover">
            {templateNames.get(integration.template_id ?? 0) ?? `#${integration.template_id}`}
          </Link>
        ),
    },
    {
      id: 'auth',
      header: t('integrations.authMethod'),
      hideBelow: 'md',
      render: (integration) => t(`integrations.authMethods.${integration.auth_method || 'none'}`),
    },
    {
      id: 'searchable',
      header: t('integrations.globalAliasColumn'),
      hideBelow: 'md',
      render: (integration) => (integration.searchable ? t('integrations.yes') : DASH),
    },
  ];
  if (canManage) {
    columns.push(
      createActionsColumn({
        deletion,
        onEdit: editDialog.show,
      }),
    );
  }

  return (
    <Page>
      <PageHeader
        title={t('integrations.title')}
        actions={
          canManage ? (
            <NewButton label={t('integrations.newIntegration')} onClick={() => editDialog.show(undefined)} />
          ) : null
        }
      />
      <Stack spacing={3}>
        <DataTable
          aria-label={t('integrations.title')}
          columns={columns}
          query={integrations}
          emptyText={t('integrations.empty')}
          paginated={false}
        />
        <AliasList
          projectId={projectId}
          integrationId={null}
          canManage={canManage}
          title={t('integrations.projectAliases')}
          description={t('integrations.projectAliasesHint')}
        />
      </Stack>
      <IntegrationDialog
        open={editDialog.open}
        projectId={projectId}
        integration={editDialog.item}
        onClose={editDialog.close}
      />
      {deletion.element}
    </Page>
  );
}
