import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';

/** Shown on every page when the server runs in demo mode, so nobody mistakes it for a real installation. */
export function DemoModeBanner() {
  const { t } = useTranslation();
  return (
    <Alert severity="info" variant="filled" square role="status" sx={{ borderRadius: 0 }}>
      {t('backup.demo.banner')}
    </Alert>
  );
}
