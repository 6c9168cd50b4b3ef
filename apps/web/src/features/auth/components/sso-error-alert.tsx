import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import { SsoErrorCode } from '@gantry/contract';

/** Explains why single sign-on sent the user back here (`/auth/login?error=<code>`); unknown codes show nothing. */
export function SsoErrorAlert() {
  const { t } = useTranslation();
  const location = useLocation();
  const code = SsoErrorCode.safeParse(new URLSearchParams(location.search).get('error'));
  if (!code.success) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }} aria-label={t('sso.errorTitle')}>
      {t(`sso.errors.${code.data}`)}
    </Alert>
  );
}
