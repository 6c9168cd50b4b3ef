import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Permission } from '@gantry/contract';
import type { Environment } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { useResourceDelete } from '../../../components/resource-delete.tsx';
import { ResourceListPage, createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { environmentsQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { loadEnvironmentRefs, useDeleteEnvironment } from '../api/environments-queries.ts';
import { EnvironmentDialog } from './environment-dialog.tsx';

export function EnvironmentsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const environments = useQuery(environmentsQuery(projectId));
  const remove = useDeleteEnvironment(projectId);
  const editDialog = useDialogState<number>();
  const deletion = useResourceDelete(projectId);
  const canManage = access.can(Permission.manageProjectResources);

  const requestDelete = (environment: Environment) =>
    void deletion.request({
      name: environment.name,
      title: t('environments.deleteTitle'),
      message: t('environments.deleteConfirm', { name: environment.name }),
      loadRefs: () => loadEnvironmentRefs(projectId, environment.id),
      remove: () => remove.mutateAsync(environment.id),
      onDeleted: () => snackbar.showSuccess(t('environments.deleted', { name: environment.name })),
    });

  const columns: Column<Environment>[] = [
    { id: 'name', header: t('environments.name'), render: (environment) => environment.name },
  ];
  if (canManage) {
    columns.push(
      createActionsColumn<Environment>({
        nameOf: (environment) => environment.name,
        onEdit: (environment) => editDialog.show(environment.id),
        onDelete: requestDelete,
        isDeleting: (environment) => deletion.checking || (remove.isPending && remove.variables === environment.id),
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
