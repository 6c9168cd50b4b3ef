import type { ReactNode } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { TextFieldProps } from '@mui/material/TextField';

type ChoiceSelectProps<T extends string | number> = Omit<
  TextFieldProps,
  'select' | 'value' | 'onChange' | 'children'
> & {
  /** The chosen value; '' while none is chosen. */
  value: T | '';
  choices: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
};

/**
 * A select of a closed list of choices (a role, a timing, a step) that hands `onChange` the chosen
 * choice's own value, typed as the choices are: a number stays a number, no cast of the event's text.
 */
export function ChoiceSelect<T extends string | number>({ value, choices, onChange, ...props }: ChoiceSelectProps<T>) {
  return (
    <TextField
      {...props}
      select
      value={value}
      onChange={(event) => {
        const chosen = choices.find((choice) => String(choice.value) === String(event.target.value));
        if (chosen) onChange(chosen.value);
      }}
    >
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
