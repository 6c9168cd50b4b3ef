import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { paths } from '../lib/paths.ts';

/** The mark beside a feature this server does not offer (Semaphore's "pro" features). */
export function ProMark({ label }: { label: string }) {
  return (
    <Chip
      label={label}
      size="small"
      color="secondary"
      variant="outlined"
      sx={{ ml: 1, height: 18, fontSize: 10, fontWeight: 700 }}
    />
  );
}

/**
 * Says a feature is not offered here, and how an administrator turns it on: Gantry has every
 * feature, the premium_features setting only decides which ones the installation shows. Its
 * "upgrade" link leads to the page of this server that says how.
 */
export function ProNotice({ message, hint }: { message: string; hint: string }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info" variant="outlined" role="status" sx={{ mb: 2 }}>
      <AlertTitle sx={{ mb: 0.5 }}>{message}</AlertTitle>
      {hint}{' '}
      <Link component={RouterLink} to={paths.premiumFeatures}>
        {t('premiumFeatures.link')}
      </Link>
    </Alert>
  );
}
