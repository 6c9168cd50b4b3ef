import { useEffect } from 'react';
import type { FormEvent } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SurveyVar } from '@gantry/contract';
import type { SurveyVarType } from '@gantry/contract';
import { AddRowButton, RemoveRowButton } from '../../../components/list-row-buttons.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import { getFirstErrorMessage, getListErrorMessage } from '../../../lib/form-errors.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';

/** Survey variable types in menu order; String is the empty id. */
const SURVEY_VAR_TYPES: readonly SurveyVarType[] = ['', 'int', 'secret', 'enum'];
export const SURVEY_TYPE_LABEL_KEYS: Record<SurveyVarType, string> = {
  '': 'templates.survey.types.string',
  int: 'templates.survey.types.int',
  secret: 'templates.survey.types.secret',
  enum: 'templates.survey.types.enum',
};

type SurveyVarInput = z.input<typeof SurveyVar>;

const EMPTY: SurveyVarInput = {
  name: '',
  title: '',
  description: '',
  type: '',
  required: false,
  values: [],
  default_value: '',
};

interface EnumValueFieldProps {
  name: `values.${number}.name` | `values.${number}.value`;
  /** The accessible name ("Value 2"): the row has no room for a visible label. */
  label: string;
  placeholder: string;
  /** The field holds a value a machine reads (VERBATIM_INPUT). */
  verbatim?: boolean;
}

/** A name or a value of an enum's row: marked when it breaks a rule, whose message shows under the list. */
function EnumValueField({ name, label, placeholder, verbatim = false }: EnumValueFieldProps) {
  return (
    <Controller
      name={name}
      render={({ field: input, fieldState }) => (
        <TextField
          size="small"
          value={input.value}
          onChange={input.onChange}
          error={fieldState.error !== undefined}
          placeholder={placeholder}
          slotProps={{ htmlInput: { 'aria-label': label, ...(verbatim ? VERBATIM_INPUT : {}) } }}
          sx={{ flex: 1 }}
        />
      )}
    />
  );
}

interface SurveyVarDialogProps {
  open: boolean;
  /** The variable to edit; a new one when absent. */
  variable?: SurveyVar;
  onSave: (variable: SurveyVar) => void;
  onClose: () => void;
}

export function SurveyVarDialog({ open, variable, onSave, onClose }: SurveyVarDialogProps) {
  const { t } = useTranslation();
  const form = useForm<SurveyVarInput, unknown, SurveyVar>({ resolver: zodResolver(SurveyVar), defaultValues: EMPTY });
  const values = useFieldArray({ control: form.control, name: 'values' });

  useEffect(() => {
    if (open) form.reset(variable ?? EMPTY);
    // Reset when the dialog opens, or reopens for another variable.
  }, [open, variable]);

  const type = form.watch('type');
  const enumValues = form.watch('values') ?? [];
  const valuesErrors = form.formState.errors.values;
  // A rule on one value (a name too long) is shown under the list too: the rows have no room for text.
  const valuesMessage = getListErrorMessage(valuesErrors) ?? getFirstErrorMessage(valuesErrors);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    // The survey dialog sits inside the template form: its submit must not reach the outer form.
    event.stopPropagation();
    void form.handleSubmit((saved) => {
      onSave({ ...saved, values: saved.type === 'enum' ? saved.values : [] });
      onClose();
    })(event);
  };

  return (
    <FormDialog
      open={open}
      form={form}
      maxWidth="sm"
      title={variable ? t('templates.survey.edit') : t('templates.survey.new')}
      submitLabel={t('common.save')}
      onSubmit={submit}
      onClose={onClose}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField
          name="title"
          label={t('templates.survey.title')}
          required
          autoFocus
          helperText={t('templates.survey.titleHint')}
        />
        <FormTextField
          name="name"
          label={t('templates.survey.name')}
          required
          helperText={t('templates.survey.nameHint')}
          verbatim
        />
      </Stack>
      <FormTextField name="description" label={t('templates.survey.description')} multiline minRows={2} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <FormSelectField
          name="type"
          label={t('templates.survey.type')}
          options={SURVEY_VAR_TYPES.map((value) => ({ value, label: t(SURVEY_TYPE_LABEL_KEYS[value]) }))}
        />
        <Box sx={{ minWidth: 160 }}>
          <FormCheckbox name="required" label={t('templates.survey.required')} />
        </Box>
      </Stack>
      {type === 'enum' ? (
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle2" color={valuesMessage ? 'error' : undefined} sx={{ mb: 1 }}>
            {t('templates.survey.values')}
          </Typography>
          <Stack spacing={1}>
            {values.fields.map((field, index) => (
              <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <EnumValueField
                  name={`values.${index}.name`}
                  label={t('templates.survey.valueNameN', { n: index + 1 })}
                  placeholder={t('templates.survey.valueName')}
                />
                <EnumValueField
                  name={`values.${index}.value`}
                  label={t('templates.survey.valueN', { n: index + 1 })}
                  placeholder={t('templates.survey.value')}
                  verbatim
                />
                <RemoveRowButton
                  label={t('templates.survey.removeValue', { n: index + 1 })}
                  onClick={() => values.remove(index)}
                />
              </Stack>
            ))}
            <AddRowButton
              label={t('templates.survey.addValue')}
              onClick={() => values.append({ name: '', value: '' })}
            />
          </Stack>
          {valuesMessage ? <FormHelperText error>{translateValidationMessage(t, valuesMessage)}</FormHelperText> : null}
        </Box>
      ) : null}
      {type === 'enum' ? (
        <FormSelectField
          name="default_value"
          label={t('templates.survey.default')}
          options={[
            { value: '', label: <em>{t('templates.survey.noDefault')}</em> },
            ...enumValues
              .filter((value) => value.name.trim() !== '')
              .map((value) => ({ value: value.value, label: value.name })),
          ]}
        />
      ) : (
        <FormTextField
          name="default_value"
          label={t('templates.survey.default')}
          type={type === 'secret' ? 'password' : 'text'}
          numeric={type === 'int'}
          autoComplete="off"
        />
      )}
    </FormDialog>
  );
}
