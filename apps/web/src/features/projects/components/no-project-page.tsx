import { useTranslation } from 'react-i18next';
import FolderOffOutlinedIcon from '@mui/icons-material/FolderOffOutlined';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';

/** For a user who belongs to no project and may not create one: says so, and whom to ask. */
export function NoProjectPage() {
  const { t } = useTranslation();
  return (
    <Page>
      <PageHeader title={t('projects.none.title')} />
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center', maxWidth: 560 }}>
        <FolderOffOutlinedIcon color="disabled" sx={{ fontSize: 48, mb: 1 }} />
        <Typography sx={{ mb: 1 }}>{t('projects.none.text')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('projects.none.ask')}
        </Typography>
      </Paper>
    </Page>
  );
}
