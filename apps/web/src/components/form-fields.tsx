import { Controller } from 'react-hook-form';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import TextField from '@mui/material/TextField';
import type { TextFieldProps } from '@mui/material/TextField';
import { translateValidationMessage } from '../lib/i18n.ts';
import { VERBATIM_INPUT } from '../lib/verbatim-input.ts';

export interface FieldProps<TValues extends FieldValues, TOutput> {
  /** The form's control; by default the one of the surrounding form (FormProvider, as in FormDialog). */
  control?: Control<TValues, unknown, TOutput>;
  name: FieldPath<TValues>;
}

type FormTextFieldProps<TValues extends FieldValues, TOutput> = FieldProps<TValues, TOutput> &
  Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'slotProps'> & {
    /** As TextField's, with the input's attributes as a plain object, merged with `numeric` and `verbatim`. */
    slotProps?: Omit<NonNullable<TextFieldProps['slotProps']>, 'htmlInput'> & { htmlInput?: InputBaseComponentProps };
    /** Shows a numeric keyboard on phones; the schema converts and checks the typed text. */
    numeric?: boolean;
    /** The field holds text a machine reads (VERBATIM_INPUT). */
    verbatim?: boolean;
  };

/** A text field bound to react-hook-form, showing the translated validation message. */
export function FormTextField<TValues extends FieldValues, TOutput>({
  control,
  name,
  numeric = false,
  verbatim = false,
  helperText,
  slotProps,
  ...props
}: FormTextFieldProps<TValues, TOutput>) {
  const { t } = useTranslation();
  const htmlInput: InputBaseComponentProps = {
    ...(numeric ? { inputMode: 'numeric' } : {}),
    ...(verbatim ? VERBATIM_INPUT : {}),
    ...slotProps?.htmlInput,
  };
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => {
        const value: unknown = field.value;
        return (
          <TextField
            {...props}
            name={field.name}
            inputRef={field.ref}
            value={value === null || value === undefined ? '' : String(value)}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={field.onBlur}
            error={fieldState.error !== undefined}
            helperText={
              fieldState.error?.message ? translateValidationMessage(t, fieldState.error.message) : helperText
            }
            slotProps={{ ...slotProps, htmlInput }}
            fullWidth
          />
        );
      }}
    />
  );
}

type FormCheckboxProps<TValues extends FieldValues, TOutput> = FieldProps<TValues, TOutput> & {
  label: string;
  disabled?: boolean;
};

export function FormCheckbox<TValues extends FieldValues, TOutput>({
  control,
  name,
  label,
  disabled,
}: FormCheckboxProps<TValues, TOutput>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <FormControlLabel
          label={label}
          disabled={disabled}
          control={
            <Checkbox
              name={field.name}
              inputRef={field.ref}
              checked={field.value === true}
              onChange={(event) => field.onChange(event.target.checked)}
            />
          }
        />
      )}
    />
  );
}
