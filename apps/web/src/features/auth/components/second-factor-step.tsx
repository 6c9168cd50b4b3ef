import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PasscodeField } from '../../../components/passcode-field.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { TotpEnrolment } from '../../../components/totp-enrolment.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useLogout } from '../api/auth-queries.ts';
import { AuthScreen } from './auth-screen.tsx';
import type { SecondFactor } from '../api/second-factor-queries.ts';
import {
  enrolmentQrUrl,
  useConfirmEnrolmentAtLogin,
  useRecoverWithCode,
  useRefreshSession,
  useStartEnrolmentAtLogin,
  useVerifyPasscode,
} from '../api/second-factor-queries.ts';

function PasscodeForm({ allowRecovery }: { allowRecovery: boolean }) {
  const { t } = useTranslation();
  const verify = useVerifyPasscode();
  const recover = useRecoverWithCode();
  const [useRecovery, setUseRecovery] = useState(false);
  const [passcode, setPasscode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (useRecovery) {
      if (recoveryCode.trim()) recover.mutate(recoveryCode.trim());
    } else if (passcode.length === 6) {
      verify.mutate(passcode, { onError: () => setPasscode('') });
    }
  };
  const mutation = useRecovery ? recover : verify;

  return (
    <form onSubmit={submit} noValidate aria-label={t('account.signIn.verifyForm')}>
      <Stack spacing={2}>
        {mutation.error ? (
          <Alert severity="error" role="alert">
            {getErrorMessage(mutation.error)}
          </Alert>
        ) : null}
        <Typography variant="body2" color="text.secondary">
          {useRecovery ? t('account.signIn.recoveryIntro') : t('account.signIn.codeIntro')}
        </Typography>
        {useRecovery ? (
          <TextField
            label={t('account.totp.recoveryCode')}
            value={recoveryCode}
            onChange={(event) => setRecoveryCode(event.target.value)}
            autoComplete="off"
            autoFocus
            fullWidth
          />
        ) : (
          <PasscodeField value={passcode} onChange={setPasscode} label={t('account.totp.code')} autoFocus />
        )}
        <SubmitButton
          size="large"
          pending={mutation.isPending}
          disabled={useRecovery ? !recoveryCode.trim() : passcode.length !== 6}
        >
          {t('account.signIn.verify')}
        </SubmitButton>
        {allowRecovery ? (
          <Box sx={{ textAlign: 'center' }}>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => {
                setUseRecovery(!useRecovery);
                verify.reset();
                recover.reset();
              }}
            >
              {useRecovery ? t('account.signIn.useCode') : t('account.signIn.useRecovery')}
            </Link>
          </Box>
        ) : null}
      </Stack>
    </form>
  );
}

function EnrolAtLogin() {
  const { t } = useTranslation();
  const start = useStartEnrolmentAtLogin();
  const confirm = useConfirmEnrolmentAtLogin();
  const refresh = useRefreshSession();

  useEffect(() => {
    start.mutate();
  }, []);

  const enrolment = start.data;
  return (
    <Stack spacing={2}>
      <Alert severity="info">{t('account.signIn.enrolRequired')}</Alert>
      {start.isError ? <Alert severity="error">{getErrorMessage(start.error)}</Alert> : null}
      {start.isPending ? <CircularProgress sx={{ alignSelf: 'center' }} /> : null}
      {enrolment ? (
        <TotpEnrolment
          enrolment={enrolment}
          qrSrc={enrolmentQrUrl(enrolment.id)}
          confirming={confirm.isPending}
          error={confirm.error ? getErrorMessage(confirm.error) : null}
          onConfirm={(passcode) => confirm.mutateAsync({ totpId: enrolment.id, passcode })}
          onDone={() => void refresh()}
        />
      ) : null}
    </Stack>
  );
}

/** Sign-in, second step: the session exists but awaits its TOTP code (or the enrolment the server requires). */
export function SecondFactorStep({ factor, allowRecovery }: { factor: SecondFactor; allowRecovery: boolean }) {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <AuthScreen
      title={factor === 'totp' ? t('account.signIn.title') : t('account.totp.setUp')}
      width={factor === 'totp' ? 300 : 360}
    >
      {factor === 'totp' ? <PasscodeForm allowRecovery={allowRecovery} /> : <EnrolAtLogin />}
      <Box sx={{ textAlign: 'center', mt: 3 }}>
        <Link
          component="button"
          type="button"
          variant="body2"
          onClick={() => logout.mutate(undefined, { onSettled: () => window.location.assign('/auth/login') })}
        >
          {t('account.signIn.otherAccount')}
        </Link>
      </Box>
    </AuthScreen>
  );
}
