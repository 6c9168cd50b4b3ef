import type { ReactNode } from 'react';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { SxProps, Theme } from '@mui/material/styles';

interface ChoiceToggleProps<T extends string | number> {
  /** Names the group for assistive technology. */
  label: string;
  value: T | null;
  choices: readonly { value: T; label: ReactNode }[];
  onChange: (value: T) => void;
  sx?: SxProps<Theme>;
  buttonSx?: SxProps<Theme>;
}

/**
 * A row of small buttons of which exactly one is chosen (a period, a view, a workspace). A click on
 * the chosen one keeps it: MUI reports it as null, which never reaches `onChange`.
 */
export function ChoiceToggle<T extends string | number>({
  label,
  value,
  choices,
  onChange,
  sx,
  buttonSx,
}: ChoiceToggleProps<T>) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_event, next: T | null) => next !== null && onChange(next)}
      aria-label={label}
      sx={sx}
    >
      {choices.map((choice) => (
        <ToggleButton key={choice.value} value={choice.value} sx={buttonSx}>
          {choice.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
