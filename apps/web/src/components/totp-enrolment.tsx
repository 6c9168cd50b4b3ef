import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UserTotp } from '@gantry/contract';
import { PasscodeField } from './passcode-field.tsx';
import { SecretValue } from './secret-value.tsx';
import { SubmitButton } from './submit-button.tsx';

/** The base32 secret inside an otpauth URL, for people who type it into their app instead of scanning. */
function secretOfOtpauthUrl(url: string): string {
  try {
    return new URL(url).searchParams.get('secret') ?? '';
  } catch {
    return '';
  }
}

interface TotpEnrolmentProps {
  enrolment: UserTotp;
  qrSrc: string;
  confirming: boolean;
  /** The failed confirmation, shown under the code field. */
  error: string | null;
  onConfirm: (passcode: string) => Promise<unknown>;
  onDone: () => void;
}

/**
 * Setting up an authenticator: scan (or type) the secret, prove it with a code, then keep the
 * recovery code, which the server will never show again.
 */
export function TotpEnrolment({ enrolment, qrSrc, confirming, error, onConfirm, onDone }: TotpEnrolmentProps) {
  const { t } = useTranslation();
  const [passcode, setPasscode] = useState('');
  const [confirmed, setConfirmed] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (passcode.length !== 6) return;
    onConfirm(passcode).then(
      () => setConfirmed(true),
      () => setPasscode(''),
    );
  };

  if (confirmed) {
    return (
      <Stack spacing={2}>
        <Alert severity="success">{t('account.totp.enabled')}</Alert>
        {enrolment.recovery_code ? (
          <>
            <Typography variant="body2">{t('account.totp.recoveryIntro')}</Typography>
            <SecretValue value={enrolment.recovery_code} label={t('account.totp.recoveryCode')} />
            <Typography variant="body2" color="warning.main">
              {t('account.totp.recoveryOnce')}
            </Typography>
          </>
        ) : null}
        <Button variant="contained" disableElevation onClick={onDone}>
          {t('account.totp.done')}
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('account.totp.setUp')}>
      <Stack spacing={2}>
        <Typography variant="body2">{t('account.totp.scan')}</Typography>
        <Box sx={{ display: 'flex', justifyContent: 'center' }}>
          <Box
            component="img"
            src={qrSrc}
            alt={t('account.totp.qrAlt')}
            width={200}
            height={200}
            sx={{ borderRadius: 1, bgcolor: '#fff' }}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('account.totp.manual')}
        </Typography>
        <SecretValue value={secretOfOtpauthUrl(enrolment.url)} label={t('account.totp.secret')} />
        <PasscodeField value={passcode} onChange={setPasscode} label={t('account.totp.code')} error={error} />
        <SubmitButton pending={confirming} disabled={passcode.length !== 6}>
          {t('account.totp.confirm')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
