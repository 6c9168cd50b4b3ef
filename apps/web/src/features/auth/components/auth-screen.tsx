import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { GantryLogo } from '../../../components/gantry-logo.tsx';

/** The screens before a session is complete (sign-in, its second step): the logo and title over a narrow column. */
export function AuthScreen({ title, children, width = 300 }: { title: string; children: ReactNode; width?: number }) {
  return (
    <Box
      sx={{
        minHeight: '100dvh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        bgcolor: 'background.default',
      }}
    >
      <Box sx={{ width, maxWidth: '100%' }}>
        <Stack spacing={1.5} sx={{ alignItems: 'center', mb: 4 }}>
          <GantryLogo size={48} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600, textAlign: 'center' }}>
            {title}
          </Typography>
        </Stack>
        {children}
      </Box>
    </Box>
  );
}
