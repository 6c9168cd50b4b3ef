import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Typography from '@mui/material/Typography';
import { PasswordBody, requiredText } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useChangePassword } from '../api/users-queries.ts';

/** The dialog changes the signed-in user's own password, which takes their current one. */
const OwnPasswordBody = PasswordBody.extend({
  current_password: z.string().min(1, requiredText('Current password')).max(1024),
});

export function ChangePasswordDialog({
  open,
  userId,
  onClose,
}: {
  open: boolean;
  userId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const change = useChangePassword();
  const form = useForm({
    resolver: zodResolver(OwnPasswordBody),
    defaultValues: { password: '', current_password: '' },
  });

  useEffect(() => {
    if (!open) return;
    form.reset({ password: '', current_password: '' });
    change.reset();
  }, [open]);

  const submit = form.handleSubmit((body) =>
    change.mutate(
      { userId, body },
      {
        onSuccess: () => {
          snackbar.showSuccess(t('users.passwordChanged'));
          onClose();
        },
      },
    ),
  );

  return (
    <FormDialog
      open={open}
      title={t('users.changePassword')}
      submitLabel={t('common.save')}
      onSubmit={submit}
      onClose={onClose}
      submitting={change.isPending}
      error={change.error ? getErrorMessage(change.error) : null}
    >
      <FormTextField
        control={form.control}
        name="current_password"
        label={t('users.currentPassword')}
        type="password"
        required
        autoFocus
        autoComplete="current-password"
      />
      <FormTextField
        control={form.control}
        name="password"
        label={t('users.newPassword')}
        type="password"
        required
        autoComplete="new-password"
      />
      <Typography variant="body2" color="text.secondary">
        {t('users.passwordChangeNote')}
      </Typography>
    </FormDialog>
  );
}
