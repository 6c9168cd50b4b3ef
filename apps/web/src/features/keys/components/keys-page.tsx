import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { Permission } from '@gantry/contract';
import type { AccessKey } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { useResourceDelete } from '../../../components/resource-delete.tsx';
import { ResourceListPage, createActionsColumn } from '../../../components/resource-list-page.tsx';
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
            <Chip
              label={t('keys.emptyBadge')}
              size="small"
              color="warning"
              variant="outlined"
              title={t('keys.emptyHint')}
              sx={{ height: 20, fontSize: 11 }}
            />
          ) : null}
        </Stack>
      ),
    },
    { id: 'type', header: t('keys.type'), render: (key) => t(`keys.types.${key.type}`) },
  ];
  if (canManage) {
    columns.push(
      createActionsColumn<AccessKey>({
        nameOf: (key) => key.name,
        onEdit: (key) => editDialog.show(key),
        onDelete: requestDelete,
        isDeleting: (key) => deletion.checking || (remove.isPending && remove.variables === key.id),
      }),
    );
  }

  return (
    <ResourceListPage
      title={t('keys.title')}
      canManage={canManage}
      create={{ label: t('keys.newKey'), onClick: () => editDialog.show(undefined) }}
      query={keys}
      columns={columns}
      getRowKey={(key) => key.id}
      emptyText={t('keys.empty')}
    >
      <KeyDialog open={editDialog.open} projectId={projectId} accessKey={editDialog.item} onClose={editDialog.close} />
      {deletion.element}
    </ResourceListPage>
  );
}
