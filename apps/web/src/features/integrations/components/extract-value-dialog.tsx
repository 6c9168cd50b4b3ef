import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationExtractValue } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useSaveExtractValue } from '../api/integrations-queries.ts';
import { INTEGRATION_DIALOG_WIDTH } from './integration-dialog.tsx';
import { ExtractValueFormSchema, getExtractValueDefaults, showsKey, toExtractValueBody } from './integration-forms.ts';
import type { ExtractValueFields } from './integration-forms.ts';

interface ExtractValueDialogProps {
  open: boolean;
  projectId: number;
  integrationId: number;
  value?: IntegrationExtractValue;
  onClose: () => void;
}

/** A value taken from each incoming request and handed to the task as a variable. */
export function ExtractValueDialog({ open, projectId, integrationId, value, onClose }: ExtractValueDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const save = useSaveExtractValue(projectId, integrationId);
  const isNew = value === undefined;
  const form = useForm<ExtractValueFields>({ resolver: zodResolver(ExtractValueFormSchema), defaultValues: getExtractValueDefaults(value) });
  const source = useWatch({ control: form.control, name: 'value_source' });
  const bodyDataType = useWatch({ control: form.control, name: 'body_data_type' });

  useEffect(() => {
    if (!open) return;
    form.reset(getExtractValueDefaults(value));
    save.reset();
    // Reset when the dialog opens, or reopens for another value.
  }, [open, value?.id]);

  const submit = form.handleSubmit((fields) => {
    const body = toExtractValueBody(fields, integrationId, value);
    save.mutate(
      { valueId: value?.id, body },
      {
        onSuccess: () => {
          snackbar.showSuccess(t(isNew ? 'integrations.valueCreated' : 'integrations.valueSaved', { name: body.name }));
          onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      open={open}
      width={INTEGRATION_DIALOG_WIDTH}
      title={isNew ? t('integrations.newValue') : t('integrations.editValue')}
      submitLabel={isNew ? t('common.create') : t('common.save')}
      onSubmit={submit}
      onClose={onClose}
      submitting={save.isPending}
      error={save.error ? getErrorMessage(save.error) : null}
    >
      <FormTextField control={form.control} name="name" label={t('integrations.name')} required autoFocus />
      <FormSelectField
        control={form.control}
        name="value_source"
        label={t('integrations.valueSource')}
        required
        options={[
          { value: 'body', label: t('integrations.sources.body') },
          { value: 'header', label: t('integrations.sources.header') },
        ]}
      />
      {source === 'body' ? (
        <FormSelectField
          control={form.control}
          name="body_data_type"
          label={t('integrations.bodyDataType')}
          required
          options={[
            { value: 'json', label: t('integrations.bodyDataTypes.json') },
            { value: 'string', label: t('integrations.bodyDataTypes.string') },
          ]}
        />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          control={form.control}
          name="key"
          label={source === 'header' ? t('integrations.headerName') : t('integrations.jsonPath')}
          required
          placeholder={source === 'header' ? 'X-GitHub-Event' : 'repository.full_name'}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      ) : null}
      <FormTextField
        control={form.control}
        name="variable"
        label={t('integrations.variable')}
        required
        placeholder="REPOSITORY"
        slotProps={{ htmlInput: { spellCheck: false } }}
      />
      <FormSelectField
        control={form.control}
        name="variable_type"
        label={t('integrations.variableType')}
        options={[
          { value: 'environment', label: t('integrations.variableTypes.environment') },
          { value: 'task', label: t('integrations.variableTypes.task') },
        ]}
      />
    </FormDialog>
  );
}
