import { createContext, useCallback, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { getErrorMessage } from '../lib/api-client.ts';
import { useProvidedContext } from '../lib/use-provided-context.ts';

/** Success and error notices disappear after 3 seconds. */
const SNACKBAR_TIMEOUT_MS = 3000;

type Severity = 'success' | 'error';

interface Notice {
  key: number;
  message: string;
  severity: Severity;
}

interface SnackbarApi {
  showSuccess: (message: string) => void;
  showError: (message: string) => void;
  /** Shows the message of a failed request (the server's, or the client's own). */
  showFailure: (error: unknown) => void;
}

const SnackbarContext = createContext<SnackbarApi | null>(null);

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback((message: string, severity: Severity) => {
    setNotice({ key: Date.now(), message, severity });
    setOpen(true);
  }, []);

  const value = useMemo<SnackbarApi>(
    () => ({
      showSuccess: (m) => show(m, 'success'),
      showError: (m) => show(m, 'error'),
      showFailure: (error) => show(getErrorMessage(error), 'error'),
    }),
    [show],
  );

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Snackbar
        key={notice?.key}
        open={open}
        autoHideDuration={SNACKBAR_TIMEOUT_MS}
        onClose={(_, reason) => {
          if (reason !== 'clickaway') setOpen(false);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          severity={notice?.severity ?? 'success'}
          variant="filled"
          onClose={() => setOpen(false)}
          sx={{ minWidth: 280, alignItems: 'center' }}
        >
          {notice?.message}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): SnackbarApi {
  return useProvidedContext(SnackbarContext, 'useSnackbar', 'SnackbarProvider');
}
