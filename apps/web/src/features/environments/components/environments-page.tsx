import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Permission } from '@gantry/contract';
import type { Environment } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage, createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { environmentsQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { loadEnvironmentRefs, useDeleteEnvironment } from '../api/environments-queries.ts';
import { EnvironmentDialog } from './environment-dialog.tsx';

export function EnvironmentsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const environments = useQuery(environmentsQuery(projectId));
  const editDialog = useDialogState<number>();
  const deletion = useItemDelete<Environment>({
    projectId,
    texts: deleteTextsOf('environments'),
    remove: useDeleteEnvironment(projectId),
    loadRefs: (id) => loadEnvironmentRefs(projectId, id),
  });
  const canManage = access.can(Permission.manageProjectResources);

  const columns: Column<Environment>[] = [
    { id: 'name', header: t('environments.name'), render: (environment) => environment.name },
  ];
  if (canManage) {
    columns.push(
      createActionsColumn<Environment>({
        deletion,
        onEdit: (environment) => editDialog.show(environment.id),
      }),
    );
  }

  return (
    <ResourceListPage
      title={t('environments.title')}
      canManage={canManage}
      create={{ label: t('environments.newEnvironment'), onClick: () => editDialog.show(undefined) }}
      query={environments}
      columns={columns}
      getRowKey={(environment) => environment.id}
      emptyText={t('environments.empty')}
    >
      <EnvironmentDialog
        open={editDialog.open}
        projectId={projectId}
        environmentId={editDialog.item}
        onClose={editDialog.close}
      />
      {deletion.element}
    </ResourceListPage>
  );
}
