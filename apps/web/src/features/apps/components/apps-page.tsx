import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { DEFAULT_APP_IDS } from '@gantry/contract';
import type { App } from '@gantry/contract';
import { AppIcon } from '../../../components/app-icon.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { TablePage } from '../../../components/table-page.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useActiveColumn } from '../../../components/use-active-column.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { appsQuery } from '../../../lib/project-resources.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { useDeleteApp, useSetAppActive } from '../api/apps-queries.ts';
import { AppDialog } from './app-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

const isDefaultApp = (id: string) => (DEFAULT_APP_IDS as readonly string[]).includes(id);

/** The server's applications. Everyone may look; only admins create, switch, edit and delete them. */
export function AppsPage() {
  const { t } = useTranslation();
  const me = useQuery(currentUserQuery);
  const apps = useQuery(appsQuery);
  const editDialog = useDialogState<App>();
  const lastProjectId = storage.getLastProjectId();
  const deletion = useItemDelete<App>({
    projectId: lastProjectId ?? 0,
    texts: deleteTextsOf('apps'),
    nameOf: (app) => app.title || app.id,
    remove: useDeleteApp(),
  });
  const isAdmin = me.data?.admin === true;
  const activeColumn = useActiveColumn<App, string>({
    header: t('apps.active'),
    label: (app) => t('apps.activeNamed', { name: app.title || app.id }),
    setActive: useSetAppActive(),
    disabled: !isAdmin,
  });

  const columns: Column<App>[] = [
    activeColumn,
    {
      id: 'title',
      header: t('apps.appTitle'),
      render: (app) => (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <AppIcon app={app} />
          <span>{app.title || app.id}</span>
        </Stack>
      ),
    },
    {
      id: 'id',
      header: t('apps.id'),
      hideBelow: 'sm',
      render: (app) => (
        <Box component="code" sx={{ fontSize: 13 }}>
          {app.id}
        </Box>
      ),
    },
  ];
  if (isAdmin) {
    columns.push(createActionsColumn({ deletion, onEdit: editDialog.show, canDelete: (app) => !isDefaultApp(app.id) }));
  }

  return (
    <TablePage
      section="apps"
      backTo={paths.back(lastProjectId)}
      actions={<NewButton label={t('apps.newApp')} disabled={!isAdmin} onClick={() => editDialog.show(undefined)} />}
      columns={columns}
      query={apps}
    >
      <AppDialog open={editDialog.open} app={editDialog.item} onClose={editDialog.close} />
      {deletion.element}
    </TablePage>
  );
}
