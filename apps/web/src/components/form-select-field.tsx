import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { Controller } from 'react-hook-form';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { TextFieldProps } from '@mui/material/TextField';
import type { AccessKey } from '@gantry/contract';
import { translateValidationMessage } from '../lib/i18n.ts';
import type { FieldProps } from './form-fields.tsx';

interface SelectOption {
  /** Ids are numbers, enums strings; null (or '' for text fields) is "none". */
  value: string | number | null;
  label: ReactNode;
  disabled?: boolean;
}

/** The options of a select of named rows (keys, repositories, templates...): each row's id, shown by its name. */
export const namedOptions = (rows: readonly { id: number; name: string }[] | undefined): SelectOption[] =>
  (rows ?? []).map((row) => ({ value: row.id, label: row.name }));

/** The keys a repository or an inventory signs in with (any but a single value), each named with its type. */
export const signInKeyOptions = (t: TFunction, keys: readonly AccessKey[] | undefined): SelectOption[] =>
  (keys ?? [])
    .filter((key) => key.type !== 'string')
    .map((key) => ({ value: key.id, label: `${key.name} (${t(`keys.types.${key.type}`)})` }));

type FormSelectFieldProps<TValues extends FieldValues, TOutput> = FieldProps<TValues, TOutput> & {
  options: readonly SelectOption[];
} & Omit<TextFieldProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'select' | 'children'>;

const keyOf = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A select bound to react-hook-form that keeps the option's own value type (a numeric id stays a number). */
export function FormSelectField<TValues extends FieldValues, TOutput>({
  control,
  name,
  options,
  helperText,
  ...props
}: FormSelectFieldProps<TValues, TOutput>) {
  const { t } = useTranslation();
  // A "none" option has the empty value: the label must stay up so the option's text shows.
  const hasNone = options.some((option) => option.value === null || option.value === '');
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          select
          slotProps={hasNone ? { select: { displayEmpty: true }, inputLabel: { shrink: true } } : undefined}
          name={field.name}
          inputRef={field.ref}
          value={options.some((option) => keyOf(option.value) === keyOf(field.value)) ? keyOf(field.value) : ''}
          onChange={(event) =>
            field.onChange(options.find((option) => keyOf(option.value) === event.target.value)?.value ?? null)
          }
          onBlur={field.onBlur}
          error={fieldState.error !== undefined}
          helperText={fieldState.error?.message ? translateValidationMessage(t, fieldState.error.message) : helperText}
          fullWidth
        >
          {options.map((option) => (
            <MenuItem key={keyOf(option.value)} value={keyOf(option.value)} disabled={option.disabled}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
