import { useEffect } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import { Permission } from '@gantry/contract';
import { TemplateDetailsTab } from '../../features/templates/components/template-details-tab.tsx';
import { toViewId } from '../../features/templates/components/template-helpers.ts';
import { useTemplateRoute } from '../../features/templates/components/template-layout.tsx';
import { TemplatesPage } from '../../features/templates/components/templates-page.tsx';
import { LastTasksRow, TemplateStatsChart, TemplateTaskList } from '../../features/tasks/index.ts';
import { ViewTabs } from '../../features/views/components/view-tabs.tsx';
import { viewsQuery } from '../../lib/project-resources.ts';
import { useProjectAccess } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { useProjectId } from '../../lib/use-project-id.ts';
import { paths } from '../../lib/paths.ts';

/**
 * The template list with its view tabs. /templates opens the project's last visited view when it
 * still exists; choosing "All" forgets it.
 */
export function TemplatesListRoute() {
  const projectId = useProjectId();
  const viewId = toViewId(useParams().viewId);
  const access = useProjectAccess(projectId);
  const views = useQuery(viewsQuery(projectId));
  const remembered = viewId === undefined ? storage.getLastViewId(projectId) : null;
  const rememberedExists = remembered !== null && (views.data?.some((view) => view.id === remembered) ?? false);

  useEffect(() => {
    if (viewId !== undefined) storage.setLastViewId(projectId, viewId);
    else if (remembered !== null && views.isSuccess && !rememberedExists) storage.setLastViewId(projectId, null);
  }, [projectId, viewId, remembered, views.isSuccess, rememberedExists]);

  if (remembered !== null && views.isPending) return null;
  if (rememberedExists) return <Navigate to={paths.templates(projectId, remembered)} replace />;
  return (
    <TemplatesPage
      key={viewId ?? 0}
      projectId={projectId}
      viewId={viewId}
      viewTabs={
        <ViewTabs projectId={projectId} viewId={viewId} canEdit={access.can(Permission.manageProjectResources)} />
      }
      renderLastTasks={(templateId) => <LastTasksRow projectId={projectId} templateId={templateId} />}
    />
  );
}

/** /templates/new is the form at /templates/new/edit, with the ?app= choice kept. */
export function NewTemplateRedirect() {
  const location = useLocation();
  return (
    <Navigate to={{ pathname: `${location.pathname.replace(/\/$/, '')}/edit`, search: location.search }} replace />
  );
}

/** A template's page opens its Tasks tab, keeping the query string (?t=taskId). */
export function TemplateIndexRedirect() {
  const location = useLocation();
  return (
    <Navigate to={{ pathname: `${location.pathname.replace(/\/$/, '')}/tasks`, search: location.search }} replace />
  );
}

/** The Tasks tab: the template's newest tasks, following the websocket, each with re-run. */
export function TemplateTasksRoute() {
  const { projectId, templateId } = useTemplateRoute();
  return <TemplateTaskList projectId={projectId} templateId={templateId} />;
}

/** The Details tab: the template's overview, then its task-status chart. */
export function TemplateOverviewRoute() {
  const { projectId, templateId } = useTemplateRoute();
  return (
    <>
      <TemplateDetailsTab />
      <Box sx={{ mt: 3 }}>
        <TemplateStatsChart projectId={projectId} templateId={templateId} />
      </Box>
    </>
  );
}
