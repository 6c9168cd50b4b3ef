import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TerraformAlias } from '@gantry/contract';
import { ConfirmDialog, confirmItem } from '../../../components/confirm-dialog.tsx';
import { ProNotice } from '../../../components/pro-notice.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import { keysQuery } from '../../../lib/project-resources.ts';
import { usePremiumFeature } from '../../../lib/shared-queries.ts';
import { aliasesQuery, useDeleteAlias } from '../api/terraform-queries.ts';
import { AddAliasDialog } from './workspace-dialogs.tsx';

/** The server names a path when it does not know its public URL; the browser knows where it is. */
const absoluteUrl = (url: string) => new URL(url, window.location.origin).toString();

/** The backend block tasks fill in through TF_HTTP_* variables, and how to point it at an alias from elsewhere. */
function backendSnippet(url: string): string {
  const settings = [
    `address=${url}`,
    `lock_address=${url}`,
    `unlock_address=${url}`,
    'lock_method=LOCK',
    'unlock_method=UNLOCK',
    'username=LOGIN',
    'password=PASSWORD',
  ];
  return [
    'terraform {',
    '  backend "http" {}',
    '}',
    '',
    'terraform init \\',
    ...settings.map((setting, i) => `  -backend-config="${setting}"${i < settings.length - 1 ? ' \\' : ''}`),
  ].join('\n');
}

interface WorkspaceAliasesProps {
  projectId: number;
  inventoryId: number;
  canManage: boolean;
}

/**
 * The HTTP backend of a workspace, or the notice that this server does not offer it (the
 * terraform_backend feature of the system info).
 */
export function WorkspaceAliases(props: WorkspaceAliasesProps) {
  const { t } = useTranslation();
  const offered = usePremiumFeature('terraform_backend');
  if (offered === undefined) return null;
  if (!offered) return <ProNotice message={t('terraform.backendProOnly')} hint={t('terraform.proHint')} />;
  return <BackendAliases {...props} />;
}

/** The HTTP backend addresses of a workspace, with copy and delete, and the backend block that uses them. */
function BackendAliases({ projectId, inventoryId, canManage }: WorkspaceAliasesProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const aliases = useQuery(aliasesQuery(projectId, inventoryId));
  const keys = useQuery(keysQuery(projectId));
  const remove = useDeleteAlias(projectId, inventoryId);
  const addDialog = useDialogState();
  const confirm = useDialogState<TerraformAlias>();
  const firstAlias = aliases.data?.[0];
  const keyName = (id: number | null) =>
    id === null ? t('terraform.noCredentials') : (keys.data?.find((key) => key.id === id)?.name ?? `#${id}`);

  const copy = async (alias: TerraformAlias) => {
    try {
      await copyText(absoluteUrl(alias.url));
      snackbar.showSuccess(t('terraform.aliasCopied'));
    } catch (error) {
      snackbar.showError(t('terraform.cantCopy', { reason: error instanceof Error ? error.message : String(error) }));
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Box>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('terraform.backend')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('terraform.backendHint')}
          </Typography>
        </Box>
        {canManage ? (
          <Button startIcon={<AddIcon />} onClick={() => addDialog.show()} disabled={aliases.isError}>
            {t('terraform.addAlias')}
          </Button>
        ) : null}
      </Stack>
      {aliases.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void aliases.refetch()}>
              {t('terraform.loadAliases')}
            </Button>
          }
        >
          {getErrorMessage(aliases.error)}
        </Alert>
      ) : null}
      {aliases.isSuccess && aliases.data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
          {t('terraform.noAliases')}
        </Typography>
      ) : null}
      <List dense disablePadding aria-label={t('terraform.aliases')}>
        {(aliases.data ?? []).map((alias) => (
          <ListItem
            key={alias.id}
            disableGutters
            secondaryAction={
              <>
                <TooltipIconButton title={t('terraform.copyAlias')} onClick={() => void copy(alias)}>
                  <ContentCopyIcon fontSize="small" />
                </TooltipIconButton>
                {canManage ? (
                  <TooltipIconButton
                    title={t('common.delete')}
                    label={t('terraform.deleteAlias')}
                    onClick={() => confirm.show(alias)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </TooltipIconButton>
                ) : null}
              </>
            }
          >
            <ListItemText
              primary={
                <Box component="code" sx={{ fontSize: 13, wordBreak: 'break-all' }}>
                  {absoluteUrl(alias.url)}
                </Box>
              }
              secondary={t('terraform.signsInWith', { key: keyName(alias.auth_key_id) })}
              sx={{ pr: 10 }}
            />
          </ListItem>
        ))}
      </List>
      {firstAlias ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('terraform.backendConfigHint')}
          </Typography>
          <Box
            component="pre"
            aria-label={t('terraform.backendConfig')}
            sx={{ m: 0, mt: 1, p: 1.5, fontSize: 12, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto' }}
          >
            {backendSnippet(absoluteUrl(firstAlias.url))}
          </Box>
        </>
      ) : null}
      <AddAliasDialog open={addDialog.open} onClose={addDialog.close} projectId={projectId} inventoryId={inventoryId} />
      <ConfirmDialog
        {...confirmItem(confirm, (alias) => remove.mutate(alias.id, { onError: snackbar.showFailure }))}
        title={t('terraform.deleteAliasTitle')}
        message={t('terraform.deleteAliasConfirm')}
      />
    </Paper>
  );
}
