import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import type { User, UserSummary } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { NameWithBadge } from '../../../components/name-with-badge.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { TablePage } from '../../../components/table-page.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { currentUserQuery, usersQuery } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { useDeleteUser } from '../api/users-queries.ts';
import { UserDialog } from './user-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

/** Admins receive full user records; the summary shape is what other users get. */
function isFullUser(user: User | UserSummary): user is User {
  return 'email' in user;
}

function Flag({ value, label }: { value: boolean; label: string }) {
  return value ? <CheckIcon fontSize="small" color="success" aria-label={label} /> : null;
}

export function UsersPage() {
  const { t } = useTranslation();
  const me = useQuery(currentUserQuery);
  const users = useQuery(usersQuery);
  const editDialog = useDialogState<User>();
  const lastProjectId = storage.getLastProjectId();
  // Nothing refers to a user, so the project only matters for reference links that never show.
  const deletion = useItemDelete<User>({
    projectId: lastProjectId ?? 0,
    texts: deleteTextsOf('users'),
    remove: useDeleteUser(),
  });

  const received: ReadonlyArray<User | UserSummary> | undefined = users.data;
  const rows = received?.filter(isFullUser);

  const columns: Column<User>[] = [
    {
      id: 'name',
      header: t('users.name'),
      render: (user) => (
        <NameWithBadge name={user.name} badge={user.admin ? t('users.adminBadge') : undefined} color="primary" />
      ),
    },
    { id: 'username', header: t('users.username'), hideBelow: 'sm', render: (user) => user.username },
    { id: 'email', header: t('users.email'), hideBelow: 'md', render: (user) => user.email },
    {
      id: 'alert',
      header: t('users.alert'),
      align: 'center',
      width: 80,
      hideBelow: 'md',
      render: (user) => <Flag value={user.alert} label={t('users.alert')} />,
    },
    {
      id: 'admin',
      header: t('users.admin'),
      align: 'center',
      width: 80,
      hideBelow: 'sm',
      render: (user) => <Flag value={user.admin} label={t('users.admin')} />,
    },
    {
      id: 'external',
      header: t('users.external'),
      align: 'center',
      width: 80,
      hideBelow: 'md',
      render: (user) => <Flag value={user.external} label={t('users.external')} />,
    },
    createActionsColumn({ deletion, onEdit: editDialog.show }),
  ];

  return (
    <TablePage
      section="users"
      backTo={paths.back(lastProjectId)}
      actions={
        <NewButton label={t('users.newUser')} icon={<PersonAddAlt1Icon />} onClick={() => editDialog.show(undefined)} />
      }
      columns={columns}
      query={{ data: rows, isPending: me.isPending || users.isPending, error: users.error }}
    >
      <UserDialog
        open={editDialog.open}
        user={editDialog.item}
        viewerIsAdmin
        isSelf={editDialog.item !== undefined && editDialog.item.id === me.data?.id}
        onClose={editDialog.close}
      />
      {deletion.element}
    </TablePage>
  );
}
