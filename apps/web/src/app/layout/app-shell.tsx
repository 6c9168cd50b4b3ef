import { lazy, Suspense, useState } from 'react';
import { Outlet, useMatch } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { getErrorMessage } from '../../lib/api-client.ts';
import { LiveEventsProvider, useOpenLiveEvents } from '../../lib/live-events.ts';
import { currentUserQuery, projectsQuery, systemInfoQuery } from '../../lib/shared-queries.ts';
import { storage } from '../../lib/storage.ts';
import { DemoModeBanner } from './demo-mode-banner.tsx';
import { ErrorScreen } from './error-screen.tsx';
import { DelayedProgress } from './delayed-progress.tsx';
import { SideMenu } from './side-menu.tsx';

// The task log and new-task dialogs (log view, survey forms) are fetched alongside the first page, not before it.
const TaskLogHost = lazy(async () => ({
  default: (await import('../../features/tasks/components/task-log-host.tsx')).TaskLogHost,
}));

/** Sidebar width in px. */
const DRAWER_WIDTH = 260;

function FullPageSpinner() {
  return (
    <Box sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}

/**
 * The signed-in app (behind SignedInGate). The live-events connection lives here rather than in the
 * app providers: the sign-in page needs neither it nor the task message schemas it parses.
 */
export function AppShell() {
  return (
    <LiveEventsProvider>
      <ShellFrame />
    </LiveEventsProvider>
  );
}

/** Loads the system info and the projects, then frames the pages. */
function ShellFrame() {
  const { t } = useTranslation();
  const theme = useTheme();
  const isDesktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [mobileOpen, setMobileOpen] = useState(false);
  const projectMatch = useMatch('/project/:projectId/*');
  const user = useQuery(currentUserQuery);
  const info = useQuery({ ...systemInfoQuery, enabled: user.isSuccess });
  const projects = useQuery({ ...projectsQuery, enabled: user.isSuccess });
  // One websocket for the whole app, open while someone is signed in.
  useOpenLiveEvents(user.isSuccess);

  const failure = (!user.data && user.error) || (!info.data && info.error) || (!projects.data && projects.error);
  if (failure) return <ErrorScreen message={getErrorMessage(failure)} />;
  if (!user.data || !info.data || !projects.data) return <FullPageSpinner />;

  // Outside project routes (users, active tasks...) the menu keeps showing the last project.
  const routeProjectId = Number(projectMatch?.params.projectId);
  const currentProjectId =
    Number.isInteger(routeProjectId) && routeProjectId > 0 ? routeProjectId : storage.getLastProjectId();
  const currentProject = projects.data.find((project) => project.id === currentProjectId);

  const menu = (
    <SideMenu
      user={user.data}
      info={info.data}
      projects={projects.data}
      currentProjectId={currentProjectId}
      onNavigate={() => setMobileOpen(false)}
    />
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100dvh' }}>
      {isDesktop ? null : (
        <AppBar
          position="fixed"
          color="inherit"
          elevation={0}
          sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
        >
          <Toolbar>
            <IconButton edge="start" onClick={() => setMobileOpen(true)} aria-label={t('menu.openMenu')} sx={{ mr: 1 }}>
              <MenuIcon />
            </IconButton>
            <Typography variant="subtitle1" component="div" noWrap sx={{ fontWeight: 600 }}>
              {currentProject?.name ?? 'Gantry'}
            </Typography>
          </Toolbar>
        </AppBar>
      )}
      <Box component="aside" sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        <Drawer
          variant={isDesktop ? 'permanent' : 'temporary'}
          open={isDesktop || mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, boxSizing: 'border-box', bgcolor: 'background.paper' } }}
        >
          {menu}
        </Drawer>
      </Box>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, bgcolor: 'background.default' }}>
        {isDesktop ? null : <Toolbar />}
        {info.data.demo_mode ? <DemoModeBanner /> : null}
        <Suspense fallback={<DelayedProgress />}>
          <Outlet />
        </Suspense>
      </Box>
      <Suspense fallback={null}>
        <TaskLogHost />
      </Suspense>
    </Box>
  );
}
