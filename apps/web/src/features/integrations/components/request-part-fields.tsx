import type { FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { showsKey } from './integration-forms.ts';

interface RequestPartFieldsProps<TFields extends FieldValues> {
  /** The form's names for the part of the request read, the body's format and the key in it. */
  names: { source: FieldPath<TFields>; bodyDataType: FieldPath<TFields>; key: FieldPath<TFields> };
  /** The values of the first two, as the dialog watches them. */
  source: string;
  bodyDataType: string;
  sourceLabel: string;
  bodyDataTypeLabel: string;
  /** An example JSON path that fits this kind of rule. */
  jsonPathPlaceholder: string;
}

/**
 * Which part of the request a rule reads: the body (as JSON, with a path, or as one string) or a
 * header by name. The format shows only for a body, the key only where there is one to look up.
 */
export function RequestPartFields<TFields extends FieldValues>({
  names,
  source,
  bodyDataType,
  sourceLabel,
  bodyDataTypeLabel,
  jsonPathPlaceholder,
}: RequestPartFieldsProps<TFields>) {
  const { t } = useTranslation();
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
      <FormSelectField name={names.source} label={sourceLabel} required options={sourceOptions} />
      {source === 'body' ? (
        <FormSelectField name={names.bodyDataType} label={bodyDataTypeLabel} required options={bodyDataTypeOptions} />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          name={names.key}
          label={source === 'header' ? t('integrations.headerName') : t('integrations.jsonPath')}
          required
          placeholder={source === 'header' ? 'X-GitHub-Event' : jsonPathPlaceholder}
          slotProps={{ htmlInput: { spellCheck: false } }}
        />
      ) : null}
    </>
  );
}
