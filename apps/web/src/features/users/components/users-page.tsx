import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CheckIcon from '@mui/icons-material/Check';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import PersonAddAlt1Icon from '@mui/icons-material/PersonAddAlt1';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { User, UserSummary } from '@gantry/contract';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
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
  const snackbar = useSnackbar();
  const me = useQuery(currentUserQuery);
  const users = useQuery(usersQuery);
  const remove = useDeleteUser();
  const editDialog = useDialogState<User>();
  const deleteDialog = useDialogState<User>();

  const lastProjectId = storage.getLastProjectId();
  const received: ReadonlyArray<User | UserSummary> | undefined = users.data;
  const rows = received?.filter(isFullUser);

  const deleteConfirmed = () => {
    const user = deleteDialog.item;
    if (!user) return;
    remove.mutate(user.id, {
      onSuccess: () => snackbar.showSuccess(t('users.deleted', { name: user.name })),
      onError: (error) => snackbar.showError(getErrorMessage(error)),
    });
  };

  const columns: Column<User>[] = [
    {
      id: 'name',
      header: t('users.name'),
      render: (user) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <span>{user.name}</span>
          {user.admin ? (
            <Chip
              label={t('users.adminBadge')}
              size="small"
              color="primary"
              variant="outlined"
              sx={{ height: 20, fontSize: 11 }}
            />
          ) : null}
        </Stack>
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
    {
      id: 'actions',
      header: '',
      align: 'right',
      width: 104,
      render: (user) => (
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t('common.edit')}>
            <IconButton
              size="small"
              onClick={() => editDialog.show(user)}
              aria-label={t('users.editNamed', { name: user.name })}
            >
              <EditOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('common.delete')}>
            <IconButton
              size="small"
              onClick={() => deleteDialog.show(user)}
              aria-label={t('users.deleteNamed', { name: user.name })}
            >
              <DeleteOutlineIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      ),
    },
  ];

  return (
    <Page>
      <PageHeader
        title={t('users.title')}
        backTo={paths.back(lastProjectId)}
        actions={
          <Button
            variant="contained"
            disableElevation
            startIcon={<PersonAddAlt1Icon />}
            onClick={() => editDialog.show(undefined)}
          >
            {t('users.newUser')}
          </Button>
        }
      />
      <DataTable
        aria-label={t('users.title')}
        columns={columns}
        query={{ data: rows, isPending: me.isPending || users.isPending, error: users.error }}
        emptyText={t('users.empty')}
      />
      <UserDialog
        open={editDialog.open}
        user={editDialog.item}
        viewerIsAdmin
        isSelf={editDialog.item !== undefined && editDialog.item.id === me.data?.id}
        onClose={editDialog.close}
      />
      <ConfirmDialog
        open={deleteDialog.open}
        title={t('users.deleteTitle')}
        message={t('users.deleteConfirm', { name: deleteDialog.item?.name ?? '' })}
        onConfirm={deleteConfirmed}
        onClose={deleteDialog.close}
      />
    </Page>
  );
}
