import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ButtonProps } from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface SettingRowButton {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  disabled: boolean;
  color?: ButtonProps['color'];
}

interface SettingRowProps {
  title: string;
  hint: string;
  /** The row's outlined button; it keeps its width beside the text (`flexShrink: 0`) and spans the row on a phone. */
  button: SettingRowButton;
}

/** A line of a settings section: what it does (title and hint), and the button that does it beside or under it. */
export function SettingRow({ title, hint, button }: SettingRowProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <Box sx={{ flexGrow: 1 }}>
        <Typography sx={{ fontWeight: 500 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </Box>
      <Button
        variant="outlined"
        color={button.color}
        startIcon={button.icon}
        onClick={button.onClick}
        disabled={button.disabled}
        sx={{ flexShrink: 0 }}
      >
        {button.label}
      </Button>
    </Stack>
  );
}
