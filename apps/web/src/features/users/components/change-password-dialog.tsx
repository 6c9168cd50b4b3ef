import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Typography from '@mui/material/Typography';
import { PasswordBody, requiredText } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useFormDialog } from '../../../components/use-form-dialog.ts';
import { useChangePassword } from '../api/users-queries.ts';

/** The dialog changes the signed-in user's own password, which takes their current one. */
const OwnPasswordBody = PasswordBody.extend({
  current_password: z.string().min(1, requiredText('Current password')).max(1024),
});
type OwnPasswordBody = z.output<typeof OwnPasswordBody>;

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
  const { dialogProps } = useFormDialog({
    open,
    onClose,
    resolver: zodResolver(OwnPasswordBody),
    defaults: { password: '', current_password: '' },
    mutation: useChangePassword(),
    toVariables: (body: OwnPasswordBody) => ({ userId, body }),
    onSaved: () => snackbar.showSuccess(t('users.passwordChanged')),
  });

  return (
    <FormDialog {...dialogProps} title={t('users.changePassword')}>
      <FormTextField
        name="current_password"
        label={t('users.currentPassword')}
        type="password"
        required
        autoFocus
        autoComplete="current-password"
      />
      <FormTextField
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
