import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { IntegrationExtractValue } from '@gantry/contract';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { useSaveExtractValue } from '../api/integrations-queries.ts';
import { ExtractValueFormSchema, getExtractValueDefaults, toExtractValueBody } from './integration-forms.ts';
import type { ExtractValueFields } from './integration-forms.ts';
import { partTextsOf } from './integration-parts.ts';
import type { PartDialogProps } from './parts-section.tsx';
import { RequestRuleDialog } from './request-rule-dialog.tsx';

/** A value taken from each incoming request and handed to the task as a variable. */
export function ExtractValueDialog({
  open,
  projectId,
  integrationId,
  item: value,
  onClose,
}: PartDialogProps<IntegrationExtractValue>) {
  const { t } = useTranslation();
  const { dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: value,
    resolver: zodResolver(ExtractValueFormSchema),
    defaults: getExtractValueDefaults(value),
    mutation: useSaveExtractValue(projectId, integrationId),
    toVariables: (fields: ExtractValueFields) => ({
      id: value?.id,
      body: toExtractValueBody(fields, integrationId, value),
    }),
    texts: partTextsOf('value').item,
    nameOf: ({ variables }) => variables.body.name,
  });

  return (
    <RequestRuleDialog {...dialogProps} part="value">
      <FormTextField name="variable" label={t('integrations.variable')} required placeholder="REPOSITORY" verbatim />
      <FormSelectField
        name="variable_type"
        label={t('integrations.variableType')}
        options={[
          { value: 'environment', label: t('integrations.variableTypes.environment') },
          { value: 'task', label: t('integrations.variableTypes.task') },
        ]}
      />
    </RequestRuleDialog>
  );
}
