import { lazy, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoginBody } from '@gantry/contract';
import { FormTextField } from '../../../components/form-fields.tsx';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { currentUserQuery } from '../../../lib/shared-queries.ts';
import { loginOptionsQuery, useLogin } from '../api/auth-queries.ts';
import { LoginHelpDialog } from './login-help-dialog.tsx';
import { OidcProviderButton } from './oidc-provider-button.tsx';
import { SsoErrorAlert } from './sso-error-alert.tsx';
import { secondFactorOf } from '../api/second-factor-queries.ts';
import { GantryLogo } from '../../../components/gantry-logo.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';

// Only accounts with a second factor reach this step: its code (enrolment, copy buttons) is fetched when needed.
const SecondFactorStep = lazy(async () => ({ default: (await import('./second-factor-step.tsx')).SecondFactorStep }));

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
  const form = useForm({ resolver: zodResolver(LoginBody), defaultValues: { auth: '', password: '' } });

  if (user.isSuccess) return <Navigate to={{ pathname: '/', search: location.search }} replace />;
  if (user.isError && !isApiError(user.error, 401)) throw user.error;
  if (user.isPending || options.isPending) return <FullPageSpinner />;
  const pendingFactor = secondFactorOf(user.error);
  if (pendingFactor) return <SecondFactorStep factor={pendingFactor} allowRecovery={options.data?.auth_methods.totp?.allow_recovery ?? false} />;

  const submit = form.handleSubmit((body) => login.mutate(body));
  const loginError = login.error
    ? isApiError(login.error, 401)
      ? t('auth.incorrectLogin')
      : getErrorMessage(login.error)
    : null;
  const providers = options.data?.oidc_providers ?? [];
  const withPassword = options.data?.login_with_password ?? true;

  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', alignItems: 'center', justifyContent: 'center', px: 2, py: 6, bgcolor: 'background.default' }}>
      <Box sx={{ width: 300, maxWidth: '100%' }}>
        <Stack spacing={1.5} sx={{ alignItems: 'center', mb: 4 }}>
          <GantryLogo size={48} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
            {t('auth.title')}
          </Typography>
        </Stack>

        <SsoErrorAlert />

        {options.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {getErrorMessage(options.error)}
          </Alert>
        ) : null}

        {withPassword ? (
          <form onSubmit={submit} noValidate aria-label={t('auth.signIn')}>
            <Stack spacing={2}>
              {loginError ? (
                <Alert severity="error" role="alert">
                  {loginError}
                </Alert>
              ) : null}
              <FormTextField control={form.control} name="auth" label={t('auth.username')} autoComplete="username" autoFocus />
              <FormTextField control={form.control} name="password" label={t('auth.password')} type="password" autoComplete="current-password" />
              <SubmitButton pending={login.isPending} size="large">
                {t('auth.signIn')}
              </SubmitButton>
            </Stack>
          </form>
        ) : null}

        {providers.length > 0 ? (
          <>
            {withPassword ? <Divider sx={{ my: 3, color: 'text.secondary', fontSize: 13 }}>{t('auth.or')}</Divider> : null}
            <Stack spacing={1.5}>
              {providers.map((provider) => (
                <OidcProviderButton key={provider.id} provider={provider} />
              ))}
            </Stack>
          </>
        ) : null}

        <Box sx={{ textAlign: 'center', mt: 3 }}>
          <Link component="button" type="button" variant="body2" onClick={() => setHelpOpen(true)}>
            {t('auth.help.link')}
          </Link>
        </Box>
      </Box>
      <LoginHelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </Box>
  );
}
