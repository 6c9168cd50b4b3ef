import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { Permission } from '@gantry/contract';
import type { AccessKey } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage, createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { keysQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { loadKeyRefs, useDeleteKey } from '../api/keys-queries.ts';
import { KeyDialog } from './key-dialog.tsx';

export function KeysPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const keys = useQuery(keysQuery(projectId));
  const editDialog = useDialogState<AccessKey>();
  const deletion = useItemDelete<AccessKey>({
    projectId,
    texts: deleteTextsOf('keys'),
    remove: useDeleteKey(projectId),
    loadRefs: (id) => loadKeyRefs(projectId, id),
  });
  const canManage = access.can(Permission.manageProjectResources);

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
        deletion,
        onEdit: (key) => editDialog.show(key),
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
