import { useTranslation } from 'react-i18next';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Page } from './page.tsx';
import { PageHeader } from './page-header.tsx';

/** A screen whose content arrives with a later issue: the title and an empty area. */
export function PlaceholderPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Page>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ py: 8, px: 3, textAlign: 'center' }}>
        <Typography color="text.secondary">{t('common.nothingHereYet')}</Typography>
      </Paper>
    </Page>
  );
}
