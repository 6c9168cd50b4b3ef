import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationExtractValue } from '@gantry/contract';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSaveExtractValue } from '../api/integrations-queries.ts';
import { ExtractValueFormSchema, getExtractValueDefaults, toExtractValueBody } from './integration-forms.ts';
import type { ExtractValueFields } from './integration-forms.ts';
import { IntegrationRuleDialog, RequestPartFields } from './integration-rule-dialog.tsx';

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
  const save = useSaveExtractValue(projectId, integrationId);
  const isNew = value === undefined;
  const form = useForm<ExtractValueFields>({
    resolver: zodResolver(ExtractValueFormSchema),
    defaultValues: getExtractValueDefaults(value),
  });
  const source = useWatch({ control: form.control, name: 'value_source' });
  const bodyDataType = useWatch({ control: form.control, name: 'body_data_type' });

  return (
    <IntegrationRuleDialog
      open={open}
      ruleId={value?.id}
      form={form}
      defaults={getExtractValueDefaults(value)}
      title={isNew ? t('integrations.newValue') : t('integrations.editValue')}
      toBody={(fields) => toExtractValueBody(fields, integrationId, value)}
      save={save}
      savedMessage={(body) => t(isNew ? 'integrations.valueCreated' : 'integrations.valueSaved', { name: body.name })}
      onClose={onClose}
    >
      <FormTextField control={form.control} name="name" label={t('integrations.name')} required autoFocus />
      <RequestPartFields
        control={form.control}
        names={{ source: 'value_source', bodyDataType: 'body_data_type', key: 'key' }}
        source={source}
        bodyDataType={bodyDataType}
        sourceLabel={t('integrations.valueSource')}
        bodyDataTypeLabel={t('integrations.bodyDataType')}
        jsonPathPlaceholder="repository.full_name"
      />
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
    </IntegrationRuleDialog>
  );
}
