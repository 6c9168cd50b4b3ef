import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import ListItemText from '@mui/material/ListItemText';
import type { AccessKey, KeyType } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { keysResource, useSaveKey } from '../api/keys-queries.ts';
import { buildKeyFormSchema, getKeyFormDefaults, toKeyBody } from './key-form.ts';
import type { KeyFormInput, KeyFormValues } from './key-form.ts';

const KEY_TYPES = ['ssh', 'login_password', 'none'] as const;

/** The seed's types; a single-value key (restored from Semaphore) keeps its own type on the list. */
const typesFor = (key: AccessKey | undefined): readonly KeyType[] =>
  key?.type === 'string' ? [...KEY_TYPES, 'string'] : KEY_TYPES;

export function KeyDialog({ open, projectId, item: accessKey, onClose }: ItemDialogProps<AccessKey>) {
  const { t } = useTranslation();
  const isNew = accessKey === undefined;
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: accessKey,
    // The schema depends on whether secrets are editable, which the form itself decides.
    resolver: (values: KeyFormInput, context, options) =>
      zodResolver(buildKeyFormSchema(isNew || values.override_secret === true))(values, context, options),
    defaults: getKeyFormDefaults(accessKey),
    mutation: useSaveKey(projectId),
    toVariables: (values: KeyFormValues) => ({ id: accessKey?.id, body: toKeyBody(values, accessKey) }),
    texts: keysResource.texts,
    nameOf: ({ values }) => values.name,
  });

  const type = form.watch('type');
  const secretsEditable = isNew || form.watch('override_secret') === true;

  return (
    <FormDialog {...dialogProps}>
      <FormTextField name="name" label={t('keys.name')} required autoFocus />
      <FormSelectField
        name="type"
        label={t('keys.type')}
        required
        disabled={!secretsEditable}
        options={typesFor(accessKey).map((value) => ({
          value,
          label: (
            <ListItemText primary={t(`keys.types.${value}`)} secondary={t(`keys.typeHints.${value}`)} sx={{ my: 0 }} />
          ),
        }))}
      />
      {isNew ? null : (
        <>
          <FormCheckbox name="override_secret" label={t('keys.override')} />
          {accessKey.empty && !secretsEditable && accessKey.type !== 'none' ? (
            <Alert severity="warning">{t('keys.emptyHint')}</Alert>
          ) : null}
        </>
      )}
      {type === 'ssh' && secretsEditable ? (
        <>
          <FormTextField
            name="ssh.login"
            label={t('keys.login')}
            helperText={t('keys.loginOptional')}
            autoComplete="off"
            verbatim
          />
          <FormTextField
            name="ssh.passphrase"
            label={t('keys.passphrase')}
            type="password"
            autoComplete="new-password"
          />
          <FormTextField
            name="ssh.private_key"
            label={t('keys.privateKey')}
            required
            multiline
            minRows={4}
            maxRows={12}
            placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            verbatim
            slotProps={{ htmlInput: { style: { fontFamily: 'monospace', fontSize: 13 } } }}
          />
        </>
      ) : null}
      {type === 'string' && secretsEditable ? (
        <FormTextField name="string" label={t('keys.value')} type="password" required autoComplete="new-password" />
      ) : null}
      {type === 'login_password' && secretsEditable ? (
        <>
          <FormTextField name="login_password.login" label={t('keys.login')} autoComplete="off" verbatim />
          <FormTextField
            name="login_password.password"
            label={t('keys.password')}
            type="password"
            required
            autoComplete="new-password"
          />
        </>
      ) : null}
    </FormDialog>
  );
}
