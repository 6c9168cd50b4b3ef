import { lazy } from 'react';
import type { ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { AppShell } from '../layout/app-shell.tsx';
import { AdminRoute } from './admin-route.tsx';
import { DashboardLayout } from './dashboard-layout.tsx';
import { HomeRedirect } from './home-redirect.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { ProjectIndexRedirect } from './project-index-redirect.tsx';
import { ProjectCreationRoute } from './project-creation-route.tsx';
import { ProjectLayout } from './project-layout.tsx';

/**
 * The screen `name` of a module, fetched the first time it is shown. The layouts above stay in this
 * chunk so a deep link costs one round of fetching, not one per nesting level; the app shell shows a
 * delayed spinner meanwhile, and on a navigation the current screen stays up until the next one has arrived.
 */
function onDemand<TModule extends Record<TName, ComponentType>, TName extends keyof TModule>(
  load: () => Promise<TModule>,
  name: TName,
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
}

const templateRoutesModule = () => import('./template-routes.tsx');
const runnersModule = () => import('../../features/runners/components/runners-page.tsx');
const workflowsModule = () => import('../../features/workflows/index.ts');

const NewProjectPage = onDemand(
  () => import('../../features/projects/components/new-project-page.tsx'),
  'NewProjectPage',
);
const RestoreProjectPage = onDemand(
  () => import('../../features/projects/components/restore-project-page.tsx'),
  'RestoreProjectPage',
);
const HistoryPage = onDemand(() => import('../../features/tasks/components/history-page.tsx'), 'HistoryPage');
const HostsPage = onDemand(() => import('../../features/tasks/components/hosts-page.tsx'), 'HostsPage');
const LogsSearchPage = onDemand(() => import('../../features/tasks/components/logs-search-page.tsx'), 'LogsSearchPage');
const ActivityPage = onDemand(() => import('../../features/dashboard/components/activity-page.tsx'), 'ActivityPage');
const SettingsRoute = onDemand(() => import('./settings-route.tsx'), 'SettingsRoute');
const ProjectRunnersTab = onDemand(runnersModule, 'ProjectRunnersTab');
const GlobalRunnersPage = onDemand(runnersModule, 'GlobalRunnersPage');
const TeamPage = onDemand(() => import('../../features/team/components/team-page.tsx'), 'TeamPage');
const InventoriesPage = onDemand(
  () => import('../../features/inventories/components/inventories-page.tsx'),
  'InventoriesPage',
);
const EnvironmentsPage = onDemand(
  () => import('../../features/environments/components/environments-page.tsx'),
  'EnvironmentsPage',
);
const KeysPage = onDemand(() => import('../../features/keys/components/keys-page.tsx'), 'KeysPage');
const RepositoriesPage = onDemand(
  () => import('../../features/repositories/components/repositories-page.tsx'),
  'RepositoriesPage',
);
const ScheduleRoute = onDemand(() => import('./schedule-route.tsx'), 'ScheduleRoute');
const IntegrationsPage = onDemand(
  () => import('../../features/integrations/components/integrations-page.tsx'),
  'IntegrationsPage',
);
const IntegrationDetailPage = onDemand(
  () => import('../../features/integrations/components/integration-detail-page.tsx'),
  'IntegrationDetailPage',
);
const WorkflowsPage = onDemand(workflowsModule, 'WorkflowsPage');
const WorkflowEditorPage = onDemand(workflowsModule, 'WorkflowEditorPage');
const WorkflowRunPage = onDemand(workflowsModule, 'WorkflowRunPage');
const PremiumFeaturesPage = onDemand(() => import('./premium-features-page.tsx'), 'PremiumFeaturesPage');
const UsersPage = onDemand(() => import('../../features/users/components/users-page.tsx'), 'UsersPage');
const AccountPage = onDemand(() => import('../../features/account/components/account-page.tsx'), 'AccountPage');
const ActiveTasksPage = onDemand(
  () => import('../../features/tasks/components/active-tasks-page.tsx'),
  'ActiveTasksPage',
);
const AppsPage = onDemand(() => import('../../features/apps/components/apps-page.tsx'), 'AppsPage');
const TemplatesListRoute = onDemand(templateRoutesModule, 'TemplatesListRoute');
const NewTemplateRedirect = onDemand(templateRoutesModule, 'NewTemplateRedirect');
const TemplateIndexRedirect = onDemand(templateRoutesModule, 'TemplateIndexRedirect');
const TemplateTasksRoute = onDemand(templateRoutesModule, 'TemplateTasksRoute');
const TemplateOverviewRoute = onDemand(templateRoutesModule, 'TemplateOverviewRoute');
const TemplateFormPage = onDemand(
  () => import('../../features/templates/components/template-form-page.tsx'),
  'TemplateFormPage',
);
const TemplateLayout = onDemand(
  () => import('../../features/templates/components/template-layout.tsx'),
  'TemplateLayout',
);
const TemplateWorkspacesTab = onDemand(
  () => import('../../features/terraform/components/template-workspaces-tab.tsx'),
  'TemplateWorkspacesTab',
);

/** The template routes under a prefix: "templates" for all, "views/:viewId/templates" for a view. */
function templateRoutes(prefix: string) {
  return [
    <Route key={prefix} path={prefix} element={<TemplatesListRoute />} />,
    <Route key={`${prefix}/new`} path={`${prefix}/new`} element={<NewTemplateRedirect />} />,
    <Route key={`${prefix}/new/edit`} path={`${prefix}/new/edit`} element={<TemplateFormPage />} />,
    <Route key={`${prefix}/:templateId/edit`} path={`${prefix}/:templateId/edit`} element={<TemplateFormPage />} />,
    <Route key={`${prefix}/:templateId`} path={`${prefix}/:templateId`} element={<TemplateLayout />}>
      <Route index element={<TemplateIndexRedirect />} />
      <Route path="tasks" element={<TemplateTasksRoute />} />
      <Route path="details" element={<TemplateOverviewRoute />} />
      <Route path="state" element={<TemplateWorkspacesTab />} />
    </Route>,
  ];
}

/** Everything behind sign-in, framed by the app shell. */
export function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<HomeRedirect />} />
        <Route element={<ProjectCreationRoute />}>
          <Route path="project/new" element={<NewProjectPage />} />
          <Route path="project/restore" element={<RestoreProjectPage />} />
        </Route>
        <Route path="project/:projectId" element={<ProjectLayout />}>
          <Route index element={<ProjectIndexRedirect />} />
          <Route element={<DashboardLayout />}>
            <Route path="history" element={<HistoryPage />} />
            <Route path="hosts" element={<HostsPage />} />
            <Route path="logs" element={<LogsSearchPage />} />
            <Route path="activity" element={<ActivityPage />} />
            <Route path="settings" element={<SettingsRoute />} />
            <Route path="runners" element={<ProjectRunnersTab />} />
          </Route>
          <Route path="team" element={<TeamPage />} />
          {templateRoutes('templates')}
          {templateRoutes('views/:viewId/templates')}
          <Route path="inventory" element={<InventoriesPage />} />
          <Route path="inventories/:itemId" element={<InventoriesPage />} />
          <Route path="environment" element={<EnvironmentsPage />} />
          <Route path="keys" element={<KeysPage />} />
          <Route path="repositories" element={<RepositoriesPage />} />
          <Route path="repositories/:itemId" element={<RepositoriesPage />} />
          <Route path="schedule" element={<ScheduleRoute />} />
          <Route path="schedules/:itemId" element={<ScheduleRoute />} />
          <Route path="workflows" element={<WorkflowsPage />} />
          <Route path="workflows/:workflowId" element={<WorkflowEditorPage />} />
          <Route path="workflows/:workflowId/runs/:runId" element={<WorkflowRunPage />} />
          <Route path="integrations" element={<IntegrationsPage />} />
          <Route path="integrations/:integrationId" element={<IntegrationDetailPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route element={<AdminRoute />}>
          <Route path="users" element={<UsersPage />} />
          <Route path="tasks" element={<ActiveTasksPage />} />
          <Route path="runners" element={<GlobalRunnersPage />} />
        </Route>
        <Route path="account" element={<AccountPage />} />
        <Route path="apps" element={<AppsPage />} />
        <Route path="features" element={<PremiumFeaturesPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
