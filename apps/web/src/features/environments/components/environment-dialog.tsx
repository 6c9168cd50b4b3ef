import { useRef, useState } from 'react';
import type { Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { EnvironmentBody } from '@gantry/contract';
import type { Environment } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useFormDialog } from '../../../components/use-form-dialog.ts';
import { getFirstErrorMessage } from '../../../lib/form-errors.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { environmentQuery, useSaveEnvironment } from '../api/environments-queries.ts';
import { buildSecretChanges, toSecretRows } from './environment-form.ts';
import type { SecretRow } from './environment-form.ts';
import { SecretsEditor } from './secrets-editor.tsx';
import { VariablesField } from './variables-editor.tsx';

type EnvironmentFormInput = z.input<typeof EnvironmentBody>;
type EnvironmentFormValues = z.output<typeof EnvironmentBody>;
type TabName = 'variables' | 'secrets';

const SECRET_NAME_REQUIRED = 'Secret name is required';

/** The list knows a group by its name; the dialog reads its variables and secrets. */
export function EnvironmentDialog({ open, projectId, item, onClose }: ItemDialogProps<Pick<Environment, 'id'>>) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const environmentId = item?.id;
  const isNew = environmentId === undefined;
  const existing = useQuery({ ...environmentQuery(projectId, environmentId ?? 0), enabled: open && !isNew });
  const [tab, setTab] = useState<TabName>('variables');
  const [secrets, setSecrets] = useState<SecretRow[]>([]);
  // The resolver reads the secrets of the latest render.
  const secretsRef = useRef(secrets);
  secretsRef.current = secrets;

  const resolver: Resolver<EnvironmentFormInput, unknown, EnvironmentFormValues> = async (values, context, options) => {
    const rows = secretsRef.current;
    if (rows.some((row) => row.id === undefined && !row.deleted && row.name.trim() === '')) {
      return { values: {}, errors: { secrets: { type: 'custom', message: SECRET_NAME_REQUIRED } } };
    }
    return zodResolver(EnvironmentBody)({ ...values, secrets: buildSecretChanges(rows) }, context, options);
  };
  const loaded = isNew ? undefined : existing.data;
  const { form, dialogProps } = useFormDialog({
    open,
    onClose,
    isNew,
    // Starts again once the group has loaded.
    itemKey: loaded ?? environmentId,
    resolver,
    defaults: { name: loaded?.name ?? '', json: loaded?.json || '{}', env: loaded?.env || '{}' },
    mutation: useSaveEnvironment(projectId),
    onOpen: () => {
      setTab('variables');
      setSecrets(toSecretRows(loaded));
    },
    toVariables: (values) => ({
      id: environmentId,
      body: {
        ...(environmentId ? { id: environmentId } : {}),
        name: values.name,
        json: values.json,
        env: values.env,
        secrets: buildSecretChanges(secretsRef.current),
      },
    }),
    onSaved: ({ values }) =>
      snackbar.showSuccess(t(isNew ? 'environments.created' : 'environments.saved', { name: values.name })),
    onInvalid: (errors) => {
      if (errors.name || errors.json || errors.env) setTab('variables');
      else if (errors.secrets) setTab('secrets');
    },
    otherErrors: [existing.error],
  });

  // Secrets are no registered fields: a rule on one secret (a name too long) is shown under the list.
  const secretsError = getFirstErrorMessage(form.formState.errors.secrets);

  return (
    <FormDialog
      {...dialogProps}
      maxWidth="md"
      title={isNew ? t('environments.newEnvironment') : t('environments.editEnvironment')}
    >
      {!isNew && existing.isPending ? <LinearProgress /> : null}
      <FormTextField name="name" label={t('environments.name')} required autoFocus />
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs value={tab} onChange={(_, next: TabName) => setTab(next)}>
          <Tab value="variables" label={t('environments.variablesTab')} />
          <Tab value="secrets" label={t('environments.secretsTab')} />
        </Tabs>
      </Box>
      <Box hidden={tab !== 'variables'}>
        <Stack spacing={3}>
          <VariablesField
            name="json"
            id="extra-variables"
            label={t('environments.extraVariables')}
            namePlaceholder="variable_name"
          />
          <VariablesField
            name="env"
            id="environment-variables"
            label={t('environments.environmentVariables')}
            namePlaceholder="VARIABLE_NAME"
          />
        </Stack>
      </Box>
      <Box hidden={tab !== 'secrets'}>
        <SecretsEditor
          rows={secrets}
          onChange={setSecrets}
          error={secretsError ? translateValidationMessage(t, secretsError) : undefined}
        />
      </Box>
    </FormDialog>
  );
}
