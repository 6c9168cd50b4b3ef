import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { AccountPage } from '../features/account/components/account-page.tsx';
import { ActivityPage } from '../features/dashboard/components/activity-page.tsx';
import { HistoryPage } from '../features/dashboard/components/history-page.tsx';
import { NewProjectPage } from '../features/projects/components/new-project-page.tsx';
import { RestoreProjectPage } from '../features/projects/components/restore-project-page.tsx';
import { ActiveTasksPage } from '../features/tasks/components/active-tasks-page.tsx';
import { TeamPage } from '../features/team/components/team-page.tsx';
import { UsersPage } from '../features/users/components/users-page.tsx';
import { AppsPage } from '../features/apps/components/apps-page.tsx';
import { EnvironmentsPage } from '../features/environments/components/environments-page.tsx';
import { InventoriesPage } from '../features/inventories/components/inventories-page.tsx';
import { KeysPage } from '../features/keys/components/keys-page.tsx';
import { RepositoriesPage } from '../features/repositories/components/repositories-page.tsx';
import { IntegrationDetailPage } from '../features/integrations/components/integration-detail-page.tsx';
import { IntegrationsPage } from '../features/integrations/components/integrations-page.tsx';
import { GlobalRunnersPage, ProjectRunnersTab } from '../features/runners/components/runners-page.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { RouteErrorScreen } from './layout/error-screen.tsx';
import { DashboardLayout } from './routes/dashboard-layout.tsx';
import { HomeRedirect } from './routes/home-redirect.tsx';
import { NotFoundPage } from './routes/not-found-page.tsx';
import { ProjectIndexRedirect } from './routes/project-index-redirect.tsx';
import { ProjectLayout } from './routes/project-layout.tsx';
import { SettingsRoute } from './routes/settings-route.tsx';
import { templateRoutes } from './routes/template-routes.tsx';
import { ScheduleRoute } from './routes/schedule-route.tsx';

export const router = createBrowserRouter([
  { path: '/auth/login', element: <LoginPage />, errorElement: <RouteErrorScreen /> },
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RouteErrorScreen />,
    children: [
      { index: true, element: <HomeRedirect /> },
      { path: 'project/new', element: <NewProjectPage /> },
      { path: 'project/restore', element: <RestoreProjectPage /> },
      {
        path: 'project/:projectId',
        element: <ProjectLayout />,
        children: [
          { index: true, element: <ProjectIndexRedirect /> },
          {
            element: <DashboardLayout />,
            children: [
              { path: 'history', element: <HistoryPage /> },
              { path: 'activity', element: <ActivityPage /> },
              { path: 'settings', element: <SettingsRoute /> },
              { path: 'runners', element: <ProjectRunnersTab /> },
            ],
          },
          { path: 'team', element: <TeamPage /> },
          ...templateRoutes('templates'),
          ...templateRoutes('views/:viewId/templates'),
          { path: 'inventory', element: <InventoriesPage /> },
          { path: 'environment', element: <EnvironmentsPage /> },
          { path: 'keys', element: <KeysPage /> },
          { path: 'repositories', element: <RepositoriesPage /> },
          { path: 'schedule', element: <ScheduleRoute /> },
          { path: 'integrations', element: <IntegrationsPage /> },
          { path: 'integrations/:integrationId', element: <IntegrationDetailPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { path: 'users', element: <UsersPage /> },
      { path: 'account', element: <AccountPage /> },
      { path: 'tasks', element: <ActiveTasksPage /> },
      { path: 'runners', element: <GlobalRunnersPage /> },
      { path: 'apps', element: <AppsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
