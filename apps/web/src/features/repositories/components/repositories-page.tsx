import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { Permission } from '@gantry/contract';
import type { Repository } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { ResourceListPage, createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { useLinkedItem } from '../../../components/use-linked-item.ts';
import { DASH } from '../../../lib/format-date.ts';
import { keysQuery, repositoriesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { loadRepositoryRefs, useDeleteRepository } from '../api/repositories-queries.ts';
import { isLocalUrl } from './git-url.ts';
import { RepositoryDialog } from './repository-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

export function RepositoriesPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const repositories = useQuery(repositoriesQuery(projectId));
  const keys = useQuery(keysQuery(projectId));
  const editDialog = useDialogState<Repository>();
  const deletion = useItemDelete<Repository>({
    projectId,
    texts: deleteTextsOf('repositories'),
    remove: useDeleteRepository(projectId),
    loadRefs: (id) => loadRepositoryRefs(projectId, id),
  });
  const canManage = access.can(Permission.manageProjectResources);
  const linked = useLinkedItem({
    items: repositories.data,
    ready: access.isReady,
    canOpen: () => canManage,
    open: editDialog.show,
    listPath: paths.projectPage(projectId, 'repositories'),
  });
  const keyNames = new Map((keys.data ?? []).map((key) => [key.id, key.name]));

  const columns: Column<Repository>[] = [
    { id: 'name', header: t('repositories.name'), render: (repository) => repository.name },
    {
      id: 'url',
      header: t('repositories.url'),
      render: (repository) => (
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Box component="code" sx={{ fontSize: 13, wordBreak: 'break-all' }}>
            {repository.git_url}
          </Box>
          {!isLocalUrl(repository.git_url) && repository.git_branch ? (
            <Chip
              size="small"
              variant="outlined"
              icon={<CallSplitIcon />}
              label={repository.git_branch}
              title={t('repositories.branch')}
              sx={{ height: 22, fontSize: 12 }}
            />
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'key',
      header: t('repositories.accessKey'),
      hideBelow: 'sm',
      render: (repository) => keyNames.get(repository.ssh_key_id) ?? DASH,
    },
  ];
  if (canManage) {
    columns.push(
      createActionsColumn<Repository>({
        deletion,
        onEdit: (repository) => editDialog.show(repository),
      }),
    );
  }

  return (
    <ResourceListPage
      title={t('repositories.title')}
      canManage={canManage}
      create={{ label: t('repositories.newRepository'), onClick: () => editDialog.show(undefined) }}
      query={repositories}
      columns={columns}
      getRowKey={(repository) => repository.id}
      emptyText={t('repositories.empty')}
    >
      <RepositoryDialog
        open={editDialog.open}
        projectId={projectId}
        repository={editDialog.item}
        onClose={() => {
          editDialog.close();
          linked.leave();
        }}
      />
      {deletion.element}
    </ResourceListPage>
  );
}
