import type { ChangeEvent } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';

interface OptionalSelectProps {
  label: string;
  /** The chosen option's value; the empty string chooses none. */
  value: string | number;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** What choosing none means here: "Any", "All users", "Template default". */
  noneLabel: string;
  options: readonly { value: string | number; label: string }[];
  /** The input's own accessible name, where the label alone would be ambiguous. */
  inputLabel?: string;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * A select whose first option, with the empty value, chooses none. Its label stays up, so that the
 * empty choice reads as its text rather than as a blank box under the label.
 */
export function OptionalSelect({ noneLabel, options, inputLabel, ...props }: OptionalSelectProps) {
  return (
    <TextField
      {...props}
      select
      slotProps={{
        inputLabel: { shrink: true },
        select: { displayEmpty: true },
        ...(inputLabel ? { htmlInput: { 'aria-label': inputLabel } } : {}),
      }}
    >
      <MenuItem value="">{noneLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
