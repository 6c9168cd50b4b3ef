import { Component } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import LoginIcon from '@mui/icons-material/Login';
import RefreshIcon from '@mui/icons-material/Refresh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { getErrorMessage } from '../../lib/api-client.ts';
import { useLogout } from '../../features/auth/api/auth-queries.ts';

/** What the app shows when its main data cannot be loaded: the reason, a reload and a fresh sign-in. */
export function ErrorScreen({ message }: { message: string }) {
  const { t } = useTranslation();
  const logout = useLogout();
  const relogin = () =>
    logout.mutate(undefined, {
      // A full navigation drops every bit of state of the failed session.
      onSettled: () => window.location.assign('/auth/login'),
    });

  return (
    <Box
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', px: 2, bgcolor: 'background.default' }}
      role="alert"
    >
      <Stack spacing={2} sx={{ alignItems: 'center', maxWidth: 480, textAlign: 'center' }}>
        <ErrorOutlineIcon color="error" sx={{ fontSize: 56 }} />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t('errorScreen.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {message}
        </Typography>
        <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
          <Button
            variant="contained"
            disableElevation
            startIcon={<RefreshIcon />}
            onClick={() => window.location.reload()}
          >
            {t('errorScreen.refresh')}
          </Button>
          <Button variant="outlined" startIcon={<LoginIcon />} onClick={relogin} disabled={logout.isPending}>
            {t('errorScreen.relogin')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

interface BoundaryProps {
  /** The error is forgotten when this changes: a navigation away from the failed screen. */
  resetKey: string;
  children: ReactNode;
}

class ErrorBoundary extends Component<BoundaryProps, { failure: { error: unknown } | null }> {
  override state: { failure: { error: unknown } | null } = { failure: null };

  static getDerivedStateFromError(error: unknown) {
    return { failure: { error } };
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (previous.resetKey !== this.props.resetKey && this.state.failure) this.setState({ failure: null });
  }

  override render() {
    return this.state.failure ? (
      <ErrorScreen message={getErrorMessage(this.state.failure.error)} />
    ) : (
      this.props.children
    );
  }
}

/** An error thrown while rendering a screen (or a screen's code that failed to load) shows the error screen until the next navigation. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
