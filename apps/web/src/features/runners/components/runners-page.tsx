import { useState } from 'react';
import { Navigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Permission, type Runner, type RunnerWithToken } from '@gantry/contract';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { NewButton } from '../../../components/new-button.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ProNotice } from '../../../components/pro-notice.tsx';
import { createActionsColumn } from '../../../components/resource-list-page.tsx';
import { useActiveColumn } from '../../../components/use-active-column.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { projectsQuery, systemInfoQuery, usePremiumFeature, useProjectAccess } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { runnersQuery, useDeleteRunner, useSetRunnerActive, type RunnerScope } from '../api/runners-queries.ts';
import { RunnerDialog } from './runner-dialog.tsx';
import { RunnerTokenDialog } from './runner-token-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

/** The runners table with its dialogs; the same for global runners (scope null) and a project's runners. */
function RunnersList({ scope, title }: { scope: RunnerScope; title?: string }) {
  const { t, i18n } = useTranslation();
  const info = useQuery(systemInfoQuery);
  const runners = useQuery(runnersQuery(scope));
  const activeColumn = useActiveColumn<Runner, number>({
    header: t('runners.active'),
    label: (runner) => t('runners.activeNamed', { name: runner.name }),
    setActive: useSetRunnerActive(scope),
  });
  const editDialog = useDialogState<Runner>();
  const [created, setCreated] = useState<RunnerWithToken | undefined>(undefined);
  // Nothing refers to a runner, so the project only matters for reference links that never show.
  const deletion = useItemDelete<Runner>({
    projectId: scope ?? 0,
    texts: deleteTextsOf('runners'),
    remove: useDeleteRunner(scope),
  });
  const serverUrl = info.data?.web_host || window.location.origin;
  const lastProjectId = storage.getLastProjectId();
  const backTo = paths.back(lastProjectId);

  const columns: Column<Runner>[] = [
    activeColumn,
    {
      id: 'name',
      header: t('runners.name'),
      fill: true,
      render: (runner) => <span title={runner.name}>{runner.name}</span>,
    },
    {
      id: 'webhook',
      header: t('runners.webhook'),
      hideBelow: 'lg',
      // A long URL would squeeze the other columns: one line, cut, whole in the tooltip.
      render: (runner) =>
        runner.webhook ? (
          <Tooltip title={runner.webhook}>
            <Typography variant="body2" noWrap sx={{ maxWidth: { xs: 160, md: 220 } }}>
              {runner.webhook}
            </Typography>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      id: 'max_parallel_tasks',
      header: t('runners.maxParallelTasks'),
      hideBelow: 'md',
      render: (runner) =>
        runner.max_parallel_tasks > 0 ? runner.max_parallel_tasks : <span aria-label={t('runners.unlimited')}>∞</span>,
    },
    {
      id: 'touched',
      header: t('runners.lastSeen'),
      hideBelow: 'sm',
      render: (runner) => (
        <Box sx={{ whiteSpace: 'nowrap' }}>
          {runner.touched ? formatDate(runner.touched, { locale: i18n.language }) : t('runners.neverConnected')}
        </Box>
      ),
    },
    createActionsColumn({
      deletion,
      onEdit: editDialog.show,
    }),
  ];

  const newButton = <NewButton label={t('runners.newRunner')} onClick={() => editDialog.show(undefined)} />;
  const intro = (
    <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
      {scope === null ? t('runners.globalIntro') : t('runners.projectIntro')}
    </Typography>
  );

  return (
    <>
      {/* A page of its own carries the button in its header, like the other list pages; a dashboard tab beside its intro. */}
      {title ? (
        <>
          <PageHeader title={title} backTo={backTo} actions={newButton} />
          <Box sx={{ mt: -1, mb: 2 }}>{intro}</Box>
          {info.data && !info.data.use_remote_runner ? (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('runners.remoteRunningOff')}
            </Alert>
          ) : null}
        </>
      ) : (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, mb: 2 }}
        >
          {intro}
          {newButton}
        </Stack>
      )}
      <DataTable
        aria-label={t('runners.title')}
        columns={columns}
        query={runners}
        getRowKey={(runner) => String(runner.id)}
        emptyText={t('runners.empty')}
      />
      <RunnerDialog
        open={editDialog.open}
        scope={scope}
        runner={editDialog.item}
        onClose={editDialog.close}
        onCreated={setCreated}
      />
      <RunnerTokenDialog runner={created} serverUrl={serverUrl} onClose={() => setCreated(undefined)} />
      {deletion.element}
    </>
  );
}

/** /runners: the global runners (the route lets admins only in). */
export function GlobalRunnersPage() {
  const { t } = useTranslation();
  return (
    <Page>
      <RunnersList scope={null} title={t('runners.title')} />
    </Page>
  );
}

/**
 * The runners tab of a project's dashboard: for plain projects and those who manage its resources
 * (others go to the history, as from the settings tab); a notice instead when the server does not
 * offer project runners.
 */
export function ProjectRunnersTab() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const access = useProjectAccess(projectId);
  const projects = useQuery(projectsQuery);
  const offered = usePremiumFeature('project_runners');
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  if (!access.isReady || !project || offered === undefined) return null;
  if (project.type !== '' || !access.can(Permission.manageProjectResources))
    return <Navigate to={paths.projectPage(projectId, 'history')} replace />;
  if (!offered) return <ProNotice message={t('runners.proOnly')} hint={t('runners.proHint')} />;
  return <RunnersList scope={projectId} />;
}
