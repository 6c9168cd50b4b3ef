import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

interface SectionHeadingProps {
  title: string;
  description: string;
  /** A button at the end of the row (wraps below on narrow screens); nothing for readers. */
  action?: ReactNode;
  /** How the action lines up with the two lines of text. */
  alignAction: 'center' | 'flex-end';
}

/** The title and one-line description above a part of the integration page, with its action. */
export function SectionHeading({ title, description, action, alignAction }: SectionHeadingProps) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: alignAction, flexWrap: 'wrap', mb: 1 }}>
      <Box sx={{ flexGrow: 1, minWidth: 200 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {description}
        </Typography>
      </Box>
      {action}
    </Stack>
  );
}
