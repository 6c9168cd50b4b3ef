import type { ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import type { FormDialogProps } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { INTEGRATION_DIALOG_WIDTH } from './integration-dialog.tsx';
import { showsKey } from './integration-forms.ts';
import type { IntegrationPart } from './integration-parts.ts';

/**
 * Each kind of rule's form field for the part of the request it reads (the body's format and the key in
 * it are `body_data_type` and `key` in both), its labels, and an example JSON path that fits it.
 */
const REQUEST_PARTS = {
  value: {
    sourceField: 'value_source',
    sourceLabel: 'integrations.valueSource',
    bodyDataTypeLabel: 'integrations.bodyDataType',
    jsonPathPlaceholder: 'repository.full_name',
  },
  matcher: {
    sourceField: 'match_type',
    sourceLabel: 'integrations.matchSource',
    bodyDataTypeLabel: 'integrations.bodyDataFormat',
    jsonPathPlaceholder: 'ref',
  },
} as const;

type RequestRuleDialogProps<TInput extends FieldValues, TValues> = Omit<
  FormDialogProps<TInput, TValues>,
  'children'
> & {
  part: IntegrationPart;
  /** The rule's own fields, after the part of the request it reads. */
  children: ReactNode;
};

/**
 * The dialog of a rule on each incoming request (an extracted value, a matcher): its name, the part
 * of the request it reads, then the rule's own fields.
 */
export function RequestRuleDialog<TInput extends FieldValues, TValues>({
  part,
  children,
  ...dialogProps
}: RequestRuleDialogProps<TInput, TValues>) {
  const { t } = useTranslation();
  return (
    <FormDialog {...dialogProps} width={INTEGRATION_DIALOG_WIDTH}>
      <FormTextField name="name" label={t('integrations.name')} required autoFocus />
      <RequestPartFields part={part} />
      {children}
    </FormDialog>
  );
}

/**
 * Which part of the request a rule reads: the body (as JSON, with a path, or as one string) or a
 * header by name. The format shows only for a body, the key only where there is one to look up.
 */
function RequestPartFields({ part }: { part: IntegrationPart }) {
  const { t } = useTranslation();
  const { sourceField, sourceLabel, bodyDataTypeLabel, jsonPathPlaceholder } = REQUEST_PARTS[part];
  const source = String(useWatch({ name: sourceField }));
  const bodyDataType = String(useWatch({ name: 'body_data_type' }));
  const sourceOptions = [
    { value: 'body', label: t('integrations.sources.body') },
    { value: 'header', label: t('integrations.sources.header') },
  ];
  const bodyDataTypeOptions = [
    { value: 'json', label: t('integrations.bodyDataTypes.json') },
    { value: 'string', label: t('integrations.bodyDataTypes.string') },
  ];
  return (
    <>
      <FormSelectField name={sourceField} label={t(sourceLabel)} required options={sourceOptions} />
      {source === 'body' ? (
        <FormSelectField name="body_data_type" label={t(bodyDataTypeLabel)} required options={bodyDataTypeOptions} />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          name="key"
          label={source === 'header' ? t('integrations.headerName') : t('integrations.jsonPath')}
          required
          placeholder={source === 'header' ? 'X-GitHub-Event' : jsonPathPlaceholder}
          verbatim
        />
      ) : null}
    </>
  );
}
