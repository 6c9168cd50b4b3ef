import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { Permission } from '@gantry/contract';
import type { AccessKey } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useResourceDelete } from '../../../components/resource-delete.tsx';
import { RowActions } from '../../../components/row-actions.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { keysQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { loadKeyRefs, useDeleteKey } from '../api/keys-queries.ts';
import { KeyDialog } from './key-dialog.tsx';

export function KeysPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const keys = useQuery(keysQuery(projectId));
  const remove = useDeleteKey(projectId);
  const editDialog = useDialogState<AccessKey>();
  const deletion = useResourceDelete(projectId);
  const canManage = access.can(Permission.manageProjectResources);

  const requestDelete = (key: AccessKey) =>
    void deletion.request({
      name: key.name,
      title: t('keys.deleteTitle'),
      message: t('keys.deleteConfirm', { name: key.name }),
      loadRefs: () => loadKeyRefs(projectId, key.id),
      remove: () => remove.mutateAsync(key.id),
      onDeleted: () => snackbar.showSuccess(t('keys.deleted', { name: key.name })),
    });

  const columns: Column<AccessKey>[] = [
    {
      id: 'name',
      header: t('keys.name'),
      render: (key) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>{key.name}</span>
          {key.empty && key.type !== 'none' ? (
            <Chip label={t('keys.emptyBadge')} size="small" color="warning" variant="outlined" title={t('keys.emptyHint')} sx={{ height: 20, fontSize: 11 }} />
          ) : null}
        </Stack>
      ),
    },
    { id: 'type', header: t('keys.type'), render: (key) => t(`keys.types.${key.type}`) },
  ];
  if (canManage) {
    columns.push({
      id: 'actions',
      header: '',
      align: 'right',
      width: 104,
      render: (key) => (
        <RowActions
          name={key.name}
          onEdit={() => editDialog.show(key)}
          onDelete={() => requestDelete(key)}
          deleting={deletion.checking || (remove.isPending && remove.variables === key.id)}
        />
      ),
    });
  }

  return (
    <Page>
      <PageHeader
        title={t('keys.title')}
        actions={
          canManage ? (
            <Button variant="contained" disableElevation startIcon={<AddIcon />} onClick={() => editDialog.show(undefined)}>
              {t('keys.newKey')}
            </Button>
          ) : null
        }
      />
      <DataTable
        aria-label={t('keys.title')}
        columns={columns}
        rows={keys.data}
        getRowKey={(key) => key.id}
        loading={keys.isPending}
        error={keys.error}
        emptyText={t('keys.empty')}
        paginated={false}
      />
      <KeyDialog open={editDialog.open} projectId={projectId} accessKey={editDialog.item} onClose={editDialog.close} />
      {deletion.element}
    </Page>
  );
}
