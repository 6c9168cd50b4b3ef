import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';

/** Shown on every page when the server runs in demo mode, so nobody mistakes it for a real installation. */
export function DemoModeBanner() {
  const { t } = useTranslation();
  return (
    <Alert
      severity="info"
      variant="filled"
      square
      role="status"
      // The light theme's filled info blue is too pale under white text; its dark shade reads at AA contrast.
      sx={(theme) => ({ borderRadius: 0, ...(theme.palette.mode === 'light' ? { bgcolor: 'info.dark' } : {}) })}
    >
      {t('backup.demo.banner')}
    </Alert>
  );
}
