import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SettingRow } from '../../../components/setting-row.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { projectQuery, useDeleteProject, useUpdateProject } from '../api/projects-queries.ts';
import { BackupProjectRow } from './backup-project-row.tsx';
import { ProjectForm, toProjectBody } from './project-form.tsx';

function Section({ title, children, danger = false }: { title: string; children: ReactNode; danger?: boolean }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderColor: danger ? 'error.main' : undefined }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2, fontWeight: 600, color: danger ? 'error.main' : undefined }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function ProjectSettingsPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const project = useQuery(projectQuery(projectId));
  const update = useUpdateProject(projectId);
  const remove = useDeleteProject();
  const confirm = useDialogState();

  if (project.isPending) return <LinearProgress />;
  if (project.isError) return <Alert severity="error">{getErrorMessage(project.error)}</Alert>;
  const current = project.data;

  const deleteProject = () =>
    remove.mutate(projectId, {
      onSuccess: () => {
        snackbar.showSuccess(t('projects.deleted', { name: current.name }));
        storage.setLastProjectId(null);
        void navigate('/', { replace: true });
      },
      onError: snackbar.showFailure,
    });

  return (
    <Stack spacing={3}>
      <Section title={t('projects.settings.general')}>
        <ProjectForm
          key={current.id}
          defaultValues={current}
          submitLabel={t('common.save')}
          submitting={update.isPending}
          error={update.error ? getErrorMessage(update.error) : null}
          onSubmit={(values) =>
            update.mutate(
              { ...toProjectBody(values), id: current.id, type: current.type },
              { onSuccess: () => snackbar.showSuccess(t('projects.saved', { name: values.name })) },
            )
          }
        />
      </Section>
      <Section title={t('projects.settings.dangerZone')} danger>
        {current.type === '' ? (
          <Box sx={{ mb: 3 }}>
            <BackupProjectRow projectId={current.id} />
          </Box>
        ) : null}
        <SettingRow
          title={t('projects.settings.deleteTitle')}
          hint={t('projects.settings.deleteHint')}
          button={{
            label: t('projects.settings.delete'),
            icon: <DeleteOutlineIcon />,
            color: 'error',
            disabled: remove.isPending,
            onClick: () => confirm.show(),
          }}
        />
      </Section>
      <ConfirmDialog
        open={confirm.open}
        title={t('projects.settings.deleteConfirmTitle')}
        message={t('projects.settings.deleteConfirm', { name: current.name })}
        confirmLabel={t('projects.settings.delete')}
        onConfirm={deleteProject}
        onClose={confirm.close}
      />
    </Stack>
  );
}
