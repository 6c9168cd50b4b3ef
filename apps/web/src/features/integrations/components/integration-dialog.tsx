import { useWatch } from 'react-hook-form';
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
import { FormSelectField, namedOptions } from '../../../components/form-select-field.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { itemTextsOf } from '../../../lib/item-texts.ts';
import { RunTargetFields } from '../../../components/run-target-fields.tsx';
import { keysQuery, templatesQuery, workflowChoicesQuery } from '../../../lib/project-resources.ts';
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
  const templates = useQuery({ ...templatesQuery(projectId), enabled: open });
  const keys = useQuery({ ...keysQuery(projectId), enabled: open });
  const workflows = useQuery({ ...workflowChoicesQuery(projectId), enabled: open });
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: integration,
    resolver: zodResolver(IntegrationFormSchema),
    defaults: getIntegrationDefaults(integration),
    mutation: useSaveIntegration(projectId),
    toVariables: (values: IntegrationFields) => ({
      id: integration?.id,
      body: toIntegrationBody(values, projectId, integration),
    }),
    texts: itemTextsOf('integrations', 'Integration'),
    nameOf: ({ variables }) => variables.body.name,
    otherErrors: [templates.error, keys.error, workflows.error],
  });
  const method = useWatch({ control: form.control, name: 'auth_method' });
  const target = useWatch({ control: form.control, name: 'target' });

  // The shared secret is a login-with-password key (its password) or a single-value key.
  const secretKeys = (keys.data ?? []).filter((key) => isPasswordKeyType(key.type));

  return (
    <FormDialog {...dialogProps} width={INTEGRATION_DIALOG_WIDTH}>
      <FormTextField name="name" label={t('integrations.name')} required autoFocus />
      <RunTargetFields
        section="integrations"
        target={target}
        templates={templates.data}
        workflows={workflows.data}
        workflowHelperText={t('integrations.workflowHint')}
      />
      <FormSelectField
        name="auth_method"
        label={t('integrations.authMethod')}
        options={INTEGRATION_AUTH_METHODS.map((value) => ({
          value,
          label: t(`integrations.authMethods.${value || 'none'}`),
        }))}
      />
      {authMethodNeedsHeader(method) ? (
        <FormTextField
          name="auth_header"
          label={t('integrations.authHeader')}
          required
          placeholder={method === 'token' ? 'X-Auth-Token' : 'X-Signature'}
          verbatim
        />
      ) : null}
      {authMethodNeedsSecret(method) ? (
        <FormSelectField
          name="auth_secret_id"
          label={t('integrations.authSecret')}
          required
          helperText={secretKeys.length ? t('integrations.authSecretHint') : t('integrations.noSecretKeys')}
          options={namedOptions(secretKeys)}
        />
      ) : null}
    </FormDialog>
  );
}
