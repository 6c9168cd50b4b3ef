import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import type { CurrentUser } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { PasscodeField } from '../../../components/passcode-field.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { TotpEnrolment } from '../../../components/totp-enrolment.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import type { UserTotpStatus } from '@gantry/contract';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { systemInfoQuery } from '../../../lib/shared-queries.ts';
import { totpQrUrl, useConfirmTotp, useRemoveTotp, useStartTotpEnrolment } from '../api/account-queries.ts';
import { CancelActions } from '../../../components/cancel-actions.tsx';

function EnrolDialog({ open, userId, onClose }: { open: boolean; userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const start = useStartTotpEnrolment();
  const confirm = useConfirmTotp();

  // Every opening starts a fresh enrolment; an unconfirmed one is replaced by the server.
  useEffect(() => {
    if (!open) return;
    confirm.reset();
    start.mutate(userId);
  }, [open, userId]);

  const enrolment = start.data;
  // Once confirmed the dialog shows the recovery code: only its Done button closes it, so a stray click cannot lose the code.
  const confirmed = confirm.isSuccess;
  return (
    <Dialog
      open={open}
      onClose={confirmed ? undefined : onClose}
      maxWidth="xs"
      fullWidth
      aria-labelledby="totp-enrol-title"
    >
      <DialogTitle id="totp-enrol-title">{t('account.totp.setUp')}</DialogTitle>
      <DialogContent>
        {start.isError ? <Alert severity="error">{getErrorMessage(start.error)}</Alert> : null}
        {start.isPending ? <CircularProgress sx={{ display: 'block', mx: 'auto', my: 4 }} /> : null}
        {enrolment ? (
          <TotpEnrolment
            enrolment={enrolment}
            qrSrc={totpQrUrl(enrolment)}
            confirming={confirm.isPending}
            error={confirm.error ? getErrorMessage(confirm.error) : null}
            onConfirm={(passcode) => confirm.mutateAsync({ totp: enrolment, passcode })}
            onDone={onClose}
          />
        ) : null}
      </DialogContent>
      {confirmed ? null : <CancelActions onCancel={onClose} disabled={confirm.isPending} />}
    </Dialog>
  );
}

/**
 * Turning the factor off takes a code from the app: a session left open is not enough. The dialog
 * stays mounted when the factor is gone, so that its success is still told once /api/user has no factor.
 */
function TurnOffDialog({ open, totp, onClose }: { open: boolean; totp?: UserTotpStatus; onClose: () => void }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const remove = useRemoveTotp();
  const [passcode, setPasscode] = useState('');

  useEffect(() => {
    if (!open) return;
    setPasscode('');
    remove.reset();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!totp || passcode.length !== 6) return;
    remove.mutate(
      { userId: totp.user_id, totpId: totp.id, passcode },
      {
        onSuccess: () => {
          snackbar.showSuccess(t('account.totp.removed'));
          onClose();
        },
        onError: () => setPasscode(''),
      },
    );
  };

  return (
    <FormDialog
      open={open}
      title={t('account.totp.turnOffTitle')}
      submitLabel={t('account.totp.turnOff')}
      destructive
      onSubmit={submit}
      onClose={onClose}
      submitting={remove.isPending}
      error={remove.error ? getErrorMessage(remove.error) : null}
    >
      <Typography variant="body2" color="text.secondary">
        {t('account.totp.turnOffMessage')}
      </Typography>
      <PasscodeField value={passcode} onChange={setPasscode} label={t('account.totp.code')} autoFocus />
    </FormDialog>
  );
}

export function TwoFactorSection({ user }: { user: CurrentUser }) {
  const { t, i18n } = useTranslation();
  const info = useQuery(systemInfoQuery);
  const enrolDialog = useDialogState();
  const removeDialog = useDialogState();
  const offered = info.data?.auth_methods.totp !== undefined;

  return (
    <Paper variant="outlined" component="section" aria-labelledby="two-factor-title" sx={{ p: 3 }}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="two-factor-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('account.totp.title')}
        </Typography>
        <Chip
          size="small"
          color={user.totp ? 'success' : 'default'}
          label={user.totp ? t('account.totp.statusOn') : t('account.totp.statusOff')}
        />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('account.totp.intro')}
      </Typography>
      {user.totp ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {t('account.totp.onSince', { date: formatDate(user.totp.created, { locale: i18n.language }) })}
          </Typography>
          <Button color="error" variant="outlined" onClick={() => removeDialog.show()}>
            {t('account.totp.turnOff')}
          </Button>
        </Stack>
      ) : offered ? (
        <Button variant="contained" disableElevation onClick={() => enrolDialog.show()}>
          {t('account.totp.setUp')}
        </Button>
      ) : info.isSuccess ? (
        <Alert severity="info">{t('account.totp.notOffered')}</Alert>
      ) : null}
      <EnrolDialog open={enrolDialog.open} userId={user.id} onClose={enrolDialog.close} />
      <TurnOffDialog open={removeDialog.open} totp={user.totp} onClose={removeDialog.close} />
    </Paper>
  );
}
