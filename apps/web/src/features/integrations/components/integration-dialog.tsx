import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  INTEGRATION_AUTH_METHODS,
  authMethodNeedsHeader,
  authMethodNeedsSecret,
  isPasswordKeyType,
} from '@gantry/contract';
import type { Integration } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { keysQuery, templatesQuery } from '../../../lib/project-resources.ts';
import { useSaveIntegration } from '../api/integrations-queries.ts';
import { IntegrationFormSchema, getIntegrationDefaults, toIntegrationBody } from './integration-forms.ts';
import type { IntegrationFields } from './integration-forms.ts';

/** The seed's width for integration dialogs. */
export const INTEGRATION_DIALOG_WIDTH = 450;

interface IntegrationDialogProps {
  open: boolean;
  projectId: number;
  integration?: Integration;
  onClose: () => void;
}

export function IntegrationDialog({ open, projectId, integration, onClose }: IntegrationDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const templates = useQuery({ ...templatesQuery(projectId), enabled: open });
  const keys = useQuery({ ...keysQuery(projectId), enabled: open });
  const save = useSaveIntegration(projectId);
  const isNew = integration === undefined;
  const form = useForm<IntegrationFields>({
    resolver: zodResolver(IntegrationFormSchema),
    defaultValues: getIntegrationDefaults(integration),
  });
  const method = useWatch({ control: form.control, name: 'auth_method' });

  useEffect(() => {
    if (!open) return;
    form.reset(getIntegrationDefaults(integration));
    save.reset();
    // Reset when the dialog opens, or reopens for another integration.
  }, [open, integration?.id]);

  const submit = form.handleSubmit((values) => {
    const body = toIntegrationBody(values, projectId, integration);
    save.mutate(
      { integrationId: integration?.id, body },
      {
        onSuccess: () => {
          snackbar.showSuccess(t(isNew ? 'integrations.created' : 'integrations.saved', { name: body.name }));
          onClose();
        },
      },
    );
  });

  // The shared secret is a login-with-password key (its password) or a single-value key.
  const secretKeys = (keys.data ?? []).filter((key) => isPasswordKeyType(key.type));
  const loadError = templates.error ?? keys.error;

  return (
    <FormDialog
      open={open}
      width={INTEGRATION_DIALOG_WIDTH}
      title={isNew ? t('integrations.newIntegration') : t('integrations.editIntegration')}
      submitLabel={isNew ? t('common.create') : t('common.save')}
      onSubmit={submit}
      onClose={onClose}
      submitting={save.isPending}
      error={save.error ? getErrorMessage(save.error) : loadError ? getErrorMessage(loadError) : null}
    >
      <FormTextField control={form.control} name="name" label={t('integrations.name')} required autoFocus />
      <FormSelectField
        control={form.control}
        name="template_id"
        label={t('integrations.template')}
        required
        options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
      />
      <FormSelectField
        control={form.control}
        name="auth_method"
        label={t('integrations.authMethod')}
        options={INTEGRATION_AUTH_METHODS.map((value) => ({
          value,
          label: t(`integrations.authMethods.${value || 'none'}`),
        }))}
      />
      {authMethodNeedsHeader(method) ? (
        <FormTextField
          control={form.control}
          name="auth_header"
          label={t('integrations.authHeader')}
          required
          placeholder={method === 'token' ? 'X-Auth-Token' : 'X-Signature'}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      ) : null}
      {authMethodNeedsSecret(method) ? (
        <FormSelectField
          control={form.control}
          name="auth_secret_id"
          label={t('integrations.authSecret')}
          required
          helperText={secretKeys.length ? t('integrations.authSecretHint') : t('integrations.noSecretKeys')}
          options={secretKeys.map((key) => ({ value: key.id, label: key.name }))}
        />
      ) : null}
    </FormDialog>
  );
}
