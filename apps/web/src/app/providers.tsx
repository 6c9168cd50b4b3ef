import { useState } from 'react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { SnackbarProvider } from '../components/snackbar-provider.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { ColorModeProvider } from './color-mode.tsx';

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ColorModeProvider>
        <SnackbarProvider>{children}</SnackbarProvider>
      </ColorModeProvider>
    </QueryClientProvider>
  );
}
