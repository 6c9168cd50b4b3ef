import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { Permission } from '@gantry/contract';
import type { Environment } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useResourceDelete } from '../../../components/resource-delete.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
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

  const columns: Column<Environment>[] = [{ id: 'name', header: t('environments.name'), render: (environment) => environment.name }];
  if (canManage) {
    columns.push({
      id: 'actions',
      header: '',
      align: 'right',
      width: 104,
      render: (environment) => (
        <RowActions
          name={environment.name}
          onEdit={() => editDialog.show(environment.id)}
          onDelete={() => requestDelete(environment)}
          deleting={deletion.checking || (remove.isPending && remove.variables === environment.id)}
        />
      ),
    });
  }

  return (
    <Page>
      <PageHeader
        title={t('environments.title')}
        actions={
          canManage ? (
            <Button variant="contained" disableElevation startIcon={<AddIcon />} onClick={() => editDialog.show(undefined)}>
              {t('environments.newEnvironment')}
            </Button>
          ) : null
        }
      />
      <DataTable
        aria-label={t('environments.title')}
        columns={columns}
        rows={environments.data}
        getRowKey={(environment) => environment.id}
        loading={environments.isPending}
        error={environments.error}
        emptyText={t('environments.empty')}
        paginated={false}
      />
      <EnvironmentDialog open={editDialog.open} projectId={projectId} environmentId={editDialog.item} onClose={editDialog.close} />
      {deletion.element}
    </Page>
  );
}
