import { useEffect } from 'react';
import type { ReactNode } from 'react';
import type { Control, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { UseMutationResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import type { SaveRuleVariables } from '../api/integrations-queries.ts';
import { INTEGRATION_DIALOG_WIDTH } from './integration-dialog.tsx';
import { showsKey } from './integration-forms.ts';

interface IntegrationRuleDialogProps<TFields extends FieldValues, TBody> {
  open: boolean;
  /** The rule being edited; none while creating one. */
  ruleId: number | undefined;
  form: UseFormReturn<TFields>;
  /** The form's values for this rule, put back each time the dialog opens. */
  defaults: TFields;
  title: string;
  toBody: (fields: TFields) => TBody;
  save: UseMutationResult<void, Error, SaveRuleVariables<TBody>>;
  /** The snackbar text once the body is saved. */
  savedMessage: (body: TBody) => string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * The dialog around a form for one rule of an integration (a matcher, an extracted value): fresh
 * values on every opening, create or save, the server's error inside, a message and close on success.
 */
export function IntegrationRuleDialog<TFields extends FieldValues, TBody>({
  open,
  ruleId,
  form,
  defaults,
  title,
  toBody,
  save,
  savedMessage,
  onClose,
  children,
}: IntegrationRuleDialogProps<TFields, TBody>) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();

  useEffect(() => {
    if (!open) return;
    form.reset(defaults);
    save.reset();
    // Reset when the dialog opens, or reopens for another rule.
  }, [open, ruleId]);

  const submit = form.handleSubmit((fields) => {
    const body = toBody(fields);
    save.mutate(
      { id: ruleId, body },
      {
        onSuccess: () => {
          snackbar.showSuccess(savedMessage(body));
          onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      open={open}
      width={INTEGRATION_DIALOG_WIDTH}
      title={title}
      submitLabel={ruleId === undefined ? t('common.create') : t('common.save')}
      onSubmit={submit}
      onClose={onClose}
      submitting={save.isPending}
      error={save.error ? getErrorMessage(save.error) : null}
    >
      {children}
    </FormDialog>
  );
}

interface RequestPartFieldsProps<TFields extends FieldValues> {
  control: Control<TFields>;
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
  control,
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
      <FormSelectField control={control} name={names.source} label={sourceLabel} required options={sourceOptions} />
      {source === 'body' ? (
        <FormSelectField
          control={control}
          name={names.bodyDataType}
          label={bodyDataTypeLabel}
          required
          options={bodyDataTypeOptions}
        />
      ) : null}
      {showsKey(source, bodyDataType) ? (
        <FormTextField
          control={control}
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
