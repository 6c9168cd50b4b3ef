import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/page.tsx';
import { PageHeader } from '../../components/page-header.tsx';

interface NotFoundProps {
  title: string;
  text: string;
  /** The label of the button that leads home. */
  home: string;
}

/** What stands where the address names nothing: what is missing, and the way home. */
export function NotFound({ title, text, home }: NotFoundProps) {
  return (
    <Page>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {text}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained" disableElevation>
          {home}
        </Button>
      </Paper>
    </Page>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return <NotFound title={t('notFound.title')} text={t('notFound.text')} home={t('notFound.home')} />;
}
