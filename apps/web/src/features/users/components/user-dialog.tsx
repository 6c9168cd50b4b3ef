import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Stack from '@mui/material/Stack';
import { UpdateUserBody, requiredText } from '@gantry/contract';
import type { User } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { itemTextsOf } from '../../../lib/item-texts.ts';
import { useSaveUser } from '../api/users-queries.ts';
import type { SaveUserVariables } from '../api/users-queries.ts';

/**
 * One form for new and existing users. A new user needs a password unless external (the rule of
 * CreateUserBody), checked here as well so it is reported together with the other fields.
 */
function buildUserFormSchema(isNew: boolean) {
  return UpdateUserBody.omit({ id: true }).superRefine(
    (user, ctx) => {
      if (user.external !== true && !user.password) {
        ctx.addIssue({ code: 'custom', path: ['password'], message: requiredText('Password') });
      }
    },
    { when: () => isNew },
  );
}
type UserFormInput = z.input<ReturnType<typeof buildUserFormSchema>>;
type UserFormValues = z.output<ReturnType<typeof buildUserFormSchema>>;

interface UserDialogProps {
  open: boolean;
  /** The user to edit; a new user when absent. */
  user?: User;
  /** Whether the person editing is an admin: only admins see the admin flag. */
  viewerIsAdmin: boolean;
  /** Editing one's own account: the admin flag cannot be changed. */
  isSelf: boolean;
  title?: string;
  onClose: () => void;
}

const emptyUser: UserFormInput = {
  name: '',
  username: '',
  email: '',
  password: '',
  current_password: '',
  admin: false,
  alert: false,
  external: false,
};

export function UserDialog({ open, user, viewerIsAdmin, isSelf, title, onClose }: UserDialogProps) {
  const { t } = useTranslation();
  const isNew = user === undefined;
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: user,
    resolver: zodResolver(buildUserFormSchema(isNew)),
    defaults: user
      ? {
          name: user.name,
          username: user.username,
          email: user.email,
          password: '',
          current_password: '',
          admin: user.admin,
          alert: user.alert,
          external: user.external,
        }
      : emptyUser,
    mutation: useSaveUser(),
    toVariables: (values: UserFormValues): SaveUserVariables => {
      const body = {
        name: values.name,
        username: values.username,
        email: values.email,
        alert: values.alert ?? false,
        external: values.external ?? false,
        admin: viewerIsAdmin ? (values.admin ?? false) : undefined,
      };
      if (!user) return { body: { ...body, password: values.external ? undefined : values.password } };
      return {
        userId: user.id,
        body: {
          ...body,
          id: user.id,
          password: values.password ? values.password : undefined,
          current_password: isSelf && values.current_password ? values.current_password : undefined,
        },
      };
    },
    texts: itemTextsOf('users', 'User'),
    nameOf: ({ result: name }) => name,
  });
  const external = form.watch('external') === true;

  return (
    <FormDialog {...dialogProps} title={title ?? dialogProps.title}>
      <FormTextField name="name" label={t('users.name')} required autoComplete="name" />
      <FormTextField name="username" label={t('users.username')} required autoComplete="username" verbatim />
      <FormTextField
        name="email"
        label={t('users.email')}
        type="email"
        required
        disabled={external && !isNew}
        autoComplete="email"
      />
      <FormTextField
        name="password"
        label={t('users.password')}
        type="password"
        required={isNew && !external}
        disabled={external}
        autoComplete="new-password"
        helperText={isNew ? undefined : t('users.passwordKeepHint')}
      />
      {isSelf && !isNew && !external ? (
        <FormTextField
          name="current_password"
          label={t('users.currentPassword')}
          type="password"
          autoComplete="current-password"
          helperText={t('users.currentPasswordHint')}
        />
      ) : null}
      <Stack>
        {viewerIsAdmin ? <FormCheckbox name="admin" label={t('users.adminLabel')} disabled={isSelf} /> : null}
        <FormCheckbox name="alert" label={t('users.alertLabel')} />
        <FormCheckbox name="external" label={t('users.externalLabel')} />
      </Stack>
    </FormDialog>
  );
}
