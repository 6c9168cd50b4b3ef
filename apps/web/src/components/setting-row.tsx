import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface SettingRowProps {
  title: string;
  hint: string;
  /** The row's button; it keeps its width beside the text (`flexShrink: 0`) and spans the row on a phone. */
  action: ReactNode;
}

/** A line of a settings section: what it does (title and hint), and the button that does it beside or under it. */
export function SettingRow({ title, hint, action }: SettingRowProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <Box sx={{ flexGrow: 1 }}>
        <Typography sx={{ fontWeight: 500 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      </Box>
      {action}
    </Stack>
  );
}
