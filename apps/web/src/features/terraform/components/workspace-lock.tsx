import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { lockQuery, useRemoveLock } from '../api/terraform-queries.ts';

/** Says who holds the workspace's state lock; a manager can release a lock a killed run left behind. */
export function WorkspaceLock({
  projectId,
  inventoryId,
  canManage,
}: {
  projectId: number;
  inventoryId: number;
  canManage: boolean;
}) {
  const { t, i18n } = useTranslation();
  const snackbar = useSnackbar();
  const lock = useQuery(lockQuery(projectId, inventoryId));
  const release = useRemoveLock(projectId, inventoryId);
  const confirm = useDialogState();
  if (!lock.data) return null;
  const holder = lock.data;
  return (
    <>
      <Alert
        severity="warning"
        action={
          canManage ? (
            <Button color="inherit" size="small" onClick={() => confirm.show()} disabled={release.isPending}>
              {t('terraform.unlock')}
            </Button>
          ) : undefined
        }
      >
        {t('terraform.lockedBy', {
          who: holder.who || holder.id,
          operation: holder.operation || '—',
          since: formatDate(holder.created, { locale: i18n.language }),
        })}
      </Alert>
      <ConfirmDialog
        open={confirm.open}
        title={t('terraform.unlockTitle')}
        message={t('terraform.unlockConfirm')}
        confirmLabel={t('terraform.unlock')}
        onClose={confirm.close}
        onConfirm={() => release.mutate(undefined, { onError: snackbar.showFailure })}
      />
    </>
  );
}
