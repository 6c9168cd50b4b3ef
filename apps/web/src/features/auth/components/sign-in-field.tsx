import { useId } from 'react';
import type { ChangeEvent, Ref } from 'react';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';

interface SignInFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The validation message under the field; the field is marked invalid while there is one. */
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
  type?: 'text' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
}

/**
 * An outlined text field put together from the parts MUI's TextField renders (same markup, label
 * and helper text wiring). TextField itself imports the select, menu and popover machinery too,
 * which the sign-in page, the first page everyone loads, never uses.
 */
export function SignInField({
  name,
  label,
  value,
  onChange,
  error,
  inputRef,
  type = 'text',
  autoComplete,
  autoFocus = false,
}: SignInFieldProps) {
  const id = useId();
  const helperTextId = error ? `${id}-helper-text` : undefined;
  return (
    <FormControl fullWidth error={error !== undefined}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        name={name}
        label={label}
        type={type}
        autoComplete={autoComplete}
        // A login is typed as it is; a password field neither spell-checks nor capitalises anyway.
        inputProps={type === 'text' ? VERBATIM_INPUT : undefined}
        autoFocus={autoFocus}
        value={value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
        inputRef={inputRef}
        aria-describedby={helperTextId}
      />
      {error ? <FormHelperText id={helperTextId}>{error}</FormHelperText> : null}
    </FormControl>
  );
}
