import type { ReactNode } from 'react';
import Box from '@mui/material/Box';

/** The content area of one screen: a centred column with the shell's padding. */
export function Page({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ px: { xs: 2, sm: 3, md: 4 }, py: { xs: 2, md: 3 }, maxWidth: 1280, mx: 'auto', width: '100%' }}>
      {children}
    </Box>
  );
}
