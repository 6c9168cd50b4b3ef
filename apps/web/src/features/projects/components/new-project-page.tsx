import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Paper from '@mui/material/Paper';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';
import { useCreateDemoProject } from '../api/backup-queries.ts';
import { useCreateProject } from '../api/projects-queries.ts';
import { ProjectForm, toProjectBody } from './project-form.tsx';
import { paths } from '../../../lib/paths.ts';

export function NewProjectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const create = useCreateProject();
  const createDemo = useCreateDemoProject();
  const failure = create.error ?? createDemo.error;

  return (
    <Page>
      <PageHeader title={t('projects.new.title')} />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <ProjectForm
          submitLabel={t('projects.new.create')}
          submitting={create.isPending || createDemo.isPending}
          error={failure ? getErrorMessage(failure) : null}
          onSubmit={(values) => {
            createDemo.reset();
            create.mutate(toProjectBody(values), {
              onSuccess: (project) => {
                snackbar.showSuccess(t('projects.created', { name: project.name }));
                storage.setLastProjectId(project.id);
                void navigate(paths.projectPage(project.id, 'history'));
              },
            });
          }}
          secondaryAction={{
            label: t('backup.demo.create'),
            onSubmit: (values) => {
              create.reset();
              createDemo.mutate(toProjectBody(values), {
                onSuccess: (project) => {
                  snackbar.showSuccess(t('backup.demo.created', { name: project.name }));
                  storage.setLastProjectId(project.id);
                  void navigate(paths.templates(project.id));
                },
              });
            },
          }}
        />
      </Paper>
    </Page>
  );
}
