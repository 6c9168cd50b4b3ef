import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { showsKey } from './integration-forms.ts';

interface RequestPartFieldsProps {
  /** The form's name for the part of the request read; the body's format and the key in it are `body_data_type` and `key`. */
  sourceField: 'value_source' | 'match_type';
  sourceLabel: string;
  bodyDataTypeLabel: string;
  /** An example JSON path that fits this kind of rule. */
  jsonPathPlaceholder: string;
}

/**
 * Which part of the request a rule reads: the body (as JSON, with a path, or as one string) or a
 * header by name. The format shows only for a body, the key only where there is one to look up.
 */
export function RequestPartFields({
  sourceField,
  sourceLabel,
  bodyDataTypeLabel,
  jsonPathPlaceholder,
}: RequestPartFieldsProps) {
  const { t } = useTranslation();
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
      <FormSelectField name={sourceField} label={sourceLabel} required options={sourceOptions} />
      {source === 'body' ? (
        <FormSelectField name="body_data_type" label={bodyDataTypeLabel} required options={bodyDataTypeOptions} />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          name="key"
          label={source === 'header' ? t('integrations.headerName') : t('integrations.jsonPath')}
          required
          placeholder={source === 'header' ? 'X-GitHub-Event' : jsonPathPlaceholder}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      ) : null}
    </>
  );
}
