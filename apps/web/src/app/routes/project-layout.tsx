import { useEffect } from 'react';
import { Link as RouterLink, Outlet } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Page } from '../../components/page.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { projectsQuery } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { useProjectId } from '../../lib/use-project-id.ts';

/** Every /project/:projectId route: selects the project (remembered for next time) or says it is unknown. */
export function ProjectLayout() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const projects = useQuery(projectsQuery);
  const project = projects.data?.find((candidate) => candidate.id === projectId);

  useEffect(() => {
    if (project) storage.setLastProjectId(project.id);
  }, [project]);

  if (!projects.data) return null;
  if (!project) {
    return (
      <Page>
        <PageHeader title={t('projects.notFound.title')} />
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('projects.notFound.text')}
          </Typography>
          <Button component={RouterLink} to="/" variant="contained" disableElevation>
            {t('projects.notFound.back')}
          </Button>
        </Paper>
      </Page>
    );
  }
  return <Outlet />;
}
