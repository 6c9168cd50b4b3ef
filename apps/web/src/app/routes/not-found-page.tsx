import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/page.tsx';
import { PageHeader } from '../../components/page-header.tsx';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page>
      <PageHeader title={t('notFound.title')} />
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('notFound.text')}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained" disableElevation>
          {t('notFound.home')}
        </Button>
      </Paper>
    </Page>
  );
}
