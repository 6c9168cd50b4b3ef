import { useTranslation } from 'react-i18next';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PlaceholderPage } from '../../components/placeholder-page.tsx';

/** A whole page whose screen arrives with a later issue. */
export function PlaceholderRoute({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return <PlaceholderPage title={t(titleKey)} />;
}

/** A dashboard tab whose content arrives with a later issue. */
export function PlaceholderTab() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ py: 8, px: 3, textAlign: 'center' }}>
      <Typography color="text.secondary">{t('common.nothingHereYet')}</Typography>
    </Paper>
  );
}
