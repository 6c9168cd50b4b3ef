import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import RestoreIcon from '@mui/icons-material/Restore';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { Project } from '@gantry/contract';
import { GantryLogo } from '../../components/gantry-logo.tsx';
import { IconMenuItem } from '../../components/icon-menu-item.tsx';
import { useMenuAnchor } from '../../components/use-menu-anchor.ts';
import { ProjectAvatar } from './project-avatar.tsx';
import { SidebarMenuButton } from './sidebar-menu-button.tsx';
import { paths } from '../../lib/paths.ts';

/** The menu's entries under the projects, for those who may create one. */
const PROJECT_ACTIONS = [
  { key: 'new', icon: <AddIcon fontSize="small" />, labelKey: 'menu.newProject', path: paths.newProject },
  {
    key: 'restore',
    icon: <RestoreIcon fontSize="small" />,
    labelKey: 'menu.restoreProject',
    path: paths.restoreProject,
  },
] as const;

interface ProjectSwitcherProps {
  projects: readonly Project[];
  currentId: number | null;
  canCreateProject: boolean;
  onNavigate: () => void;
}

export function ProjectSwitcher({ projects, currentId, canCreateProject, onNavigate }: ProjectSwitcherProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const menu = useMenuAnchor();
  const currentIndex = projects.findIndex((project) => project.id === currentId);
  const current = projects[currentIndex];

  const go = (path: string) => {
    menu.close();
    onNavigate();
    void navigate(path);
  };

  return (
    <>
      <SidebarMenuButton
        menu={menu}
        label={t('menu.switchProject')}
        avatar={current ? <ProjectAvatar name={current.name} index={currentIndex} /> : <GantryLogo size={32} />}
        primary={current?.name ?? t('menu.noProject')}
        secondary={t('menu.project')}
        endIcon={<UnfoldMoreIcon fontSize="small" sx={{ color: 'text.secondary', ml: 0.5 }} />}
        sx={{ border: 1, borderColor: 'divider' }}
      />
      <Menu {...menu.menuProps} slotProps={{ paper: { sx: { width: 244, maxHeight: 480 } }, list: { dense: false } }}>
        {projects.map((project, index) => (
          <MenuItem key={project.id} selected={project.id === currentId} onClick={() => go(paths.project(project.id))}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <ProjectAvatar name={project.name} index={index} size={28} />
            </ListItemIcon>
            <ListItemText primary={project.name} slotProps={{ primary: { noWrap: true } }} />
            {project.id === currentId ? <CheckIcon fontSize="small" color="primary" sx={{ ml: 1 }} /> : null}
          </MenuItem>
        ))}
        {canCreateProject && projects.length > 0 ? <Divider /> : null}
        {canCreateProject
          ? PROJECT_ACTIONS.map(({ key, icon, labelKey, path }) => (
              <IconMenuItem key={key} icon={icon} label={t(labelKey)} onClick={() => go(path)} />
            ))
          : null}
      </Menu>
    </>
  );
}
