import { lazy, Suspense, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { loginOptionsQuery, useLogin } from '../api/auth-queries.ts';
import { OidcProviderButton } from './oidc-provider-button.tsx';
import { SsoErrorAlert } from './sso-error-alert.tsx';
import { secondFactorOf } from '../api/second-factor-queries.ts';
import { AuthScreen } from './auth-screen.tsx';
import { SignInForm } from './sign-in-form.tsx';

// Only accounts with a second factor reach this step: its code (enrolment, copy buttons) is fetched when needed.
const SecondFactorStep = lazy(async () => ({ default: (await import('./second-factor-step.tsx')).SecondFactorStep }));
// Few open the help: its dialog (and the copy buttons with their tooltips) is fetched on the first click.
const LoginHelpDialog = lazy(async () => ({ default: (await import('./login-help-dialog.tsx')).LoginHelpDialog }));

function FullPageSpinner() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress />
    </Box>
  );
}

export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const user = useQuery(currentUserQuery);
  const options = useQuery({ ...loginOptionsQuery, enabled: user.isError });
  const login = useLogin();
  const [helpOpen, setHelpOpen] = useState(false);
  const [helpOpened, setHelpOpened] = useState(false);
  const openHelp = () => {
    setHelpOpened(true);
    setHelpOpen(true);
  };

  if (user.isSuccess) return <Navigate to={{ pathname: '/', search: location.search }} replace />;
  if (user.isError && !isApiError(user.error, 401)) throw user.error;
  if (user.isPending || options.isPending) return <FullPageSpinner />;
  const pendingFactor = secondFactorOf(user.error);
  if (pendingFactor)
    return (
      <SecondFactorStep
        factor={pendingFactor}
        allowRecovery={options.data?.auth_methods.totp?.allow_recovery ?? false}
      />
    );

  const loginError = login.error
    ? isApiError(login.error, 401)
      ? t('auth.incorrectLogin')
      : getErrorMessage(login.error)
    : null;
  const providers = options.data?.oidc_providers ?? [];
  const withPassword = options.data?.login_with_password ?? true;

  return (
    <AuthScreen title={t('auth.title')}>
      <SsoErrorAlert />

      {options.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {getErrorMessage(options.error)}
        </Alert>
      ) : null}

      {withPassword ? (
        <SignInForm pending={login.isPending} error={loginError} onSubmit={(body) => login.mutate(body)} />
      ) : null}

      {providers.length > 0 ? (
        <>
          {withPassword ? (
            <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 13 }}>{t('auth.or')}</Divider>
          ) : null}
          <Stack spacing={1.5}>
            {providers.map((provider) => (
              <OidcProviderButton key={provider.id} provider={provider} />
            ))}
          </Stack>
        </>
      ) : null}

      <Box sx={{ textAlign: 'center', mt: 3 }}>
        <Link component="button" type="button" variant="body2" onClick={openHelp}>
          {t('auth.help.link')}
        </Link>
      </Box>
      {/* Once fetched it stays mounted, so closing it animates like any dialog. */}
      {helpOpened ? (
        <Suspense fallback={null}>
          <LoginHelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
        </Suspense>
      ) : null}
    </AuthScreen>
  );
}
