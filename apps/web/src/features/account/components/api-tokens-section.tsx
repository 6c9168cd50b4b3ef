import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ApiToken } from '@gantry/contract';
import { ConfirmDialog, confirmItem } from '../../../components/confirm-dialog.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { DASH, formatDate } from '../../../lib/format-date.ts';
import { apiTokensQuery, useRevokeApiToken } from '../api/account-queries.ts';
import { NewTokenDialog } from './new-token-dialog.tsx';
import { deleteColumn } from '../../../components/delete-icon-button.tsx';

const mono = {
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  fontSize: 13,
  whiteSpace: 'nowrap',
};
// Dates broken over three lines on a phone read badly; the table scrolls sideways instead.
const noWrap = { whiteSpace: 'nowrap' };

export function ApiTokensSection() {
  const { t, i18n } = useTranslation();
  const snackbar = useSnackbar();
  const tokens = useQuery(apiTokensQuery);
  const revoke = useRevokeApiToken();
  const newDialog = useDialogState();
  const revokeDialog = useDialogState<ApiToken>();
  const locale = i18n.language;

  const revokeConfirmed = (token: ApiToken) =>
    revoke.mutate(token.id, {
      onSuccess: () => snackbar.showSuccess(t('account.tokens.revoked')),
      onError: snackbar.showFailure,
    });

  const columns: Column<ApiToken>[] = [
    { id: 'name', header: t('account.tokens.name'), render: (token) => token.name || DASH },
    {
      id: 'token',
      header: t('account.tokens.token'),
      render: (token) => <Box component="code" sx={mono}>{`${token.id}…`}</Box>,
    },
    {
      id: 'created',
      header: t('account.tokens.created'),
      render: (token) => <Box sx={noWrap}>{formatDate(token.created, { locale })}</Box>,
    },
    {
      id: 'expires',
      header: t('account.tokens.expires'),
      render: (token) => (
        <Box sx={noWrap}>{token.expires_at ? formatDate(token.expires_at, { locale }) : t('account.tokens.never')}</Box>
      ),
    },
    {
      id: 'status',
      header: t('account.tokens.status'),
      render: (token) => (
        <Chip
          size="small"
          variant="outlined"
          color={token.expired ? 'default' : 'success'}
          label={token.expired ? t('account.tokens.expired') : t('account.tokens.active')}
        />
      ),
    },
    deleteColumn({
      width: 64,
      title: t('account.tokens.revoke'),
      labelOf: (token) => t('account.tokens.revokeNamed', { name: token.name || token.id }),
      onDelete: (token) => revokeDialog.show(token),
    }),
  ];

  return (
    <Box component="section" aria-labelledby="api-tokens-title">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="api-tokens-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('account.tokens.title')}
        </Typography>
        <NewButton label={t('account.tokens.new')} onClick={() => newDialog.show()} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('account.tokens.intro')}
      </Typography>
      <DataTable
        aria-label={t('account.tokens.title')}
        columns={columns}
        query={tokens}
        emptyText={t('account.tokens.empty')}
      />
      <NewTokenDialog open={newDialog.open} onClose={newDialog.close} />
      <ConfirmDialog
        {...confirmItem(revokeDialog, revokeConfirmed)}
        title={t('account.tokens.revokeTitle')}
        message={t('account.tokens.revokeMessage', { name: revokeDialog.item?.name || revokeDialog.item?.id || '' })}
        confirmLabel={t('account.tokens.revoke')}
      />
    </Box>
  );
}
