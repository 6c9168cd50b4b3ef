import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { CurrentUser, Project, SystemInfo } from '@gantry/contract';
import { ProjectNav } from './project-nav.tsx';
import { ProjectSwitcher } from './project-switcher.tsx';
import { UserMenu } from './user-menu.tsx';

interface SideMenuProps {
  user: CurrentUser;
  info: SystemInfo;
  projects: readonly Project[];
  currentProjectId: number | null;
  /** Called after any navigation, so the mobile drawer can close. */
  onNavigate: () => void;
}

export function SideMenu({ user, info, projects, currentProjectId, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const project = projects.find((candidate) => candidate.id === currentProjectId);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Box sx={{ p: 1.5 }}>
        <ProjectSwitcher
          projects={projects}
          currentId={project?.id ?? null}
          canCreateProject={user.can_create_project}
          onNavigate={onNavigate}
        />
      </Box>
      <Box sx={{ flexGrow: 1, overflowY: 'auto', px: 1.5 }}>
        {project ? (
          <ProjectNav project={project} onNavigate={onNavigate} />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ px: 1, py: 2 }}>
            {projects.length === 0 ? t('menu.noProjectsYet') : t('menu.pickProject')}
          </Typography>
        )}
      </Box>
      <Divider />
      <Box sx={{ p: 1.5 }}>
        <UserMenu user={user} info={info} onNavigate={onNavigate} />
      </Box>
    </Box>
  );
}
