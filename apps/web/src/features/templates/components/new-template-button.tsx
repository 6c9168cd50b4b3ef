import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import AppsIcon from '@mui/icons-material/Apps';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { AppIcon } from '../../../components/app-icon.tsx';
import { appsQuery } from '../../../lib/project-resources.ts';
import { paths } from '../../../lib/paths.ts';

interface NewTemplateButtonProps {
  projectId: number;
  viewId: number | undefined;
  isAdmin: boolean;
}

/** "New template" opens a menu of the active apps; admins also get a way to the apps page. */
export function NewTemplateButton({ projectId, viewId, isAdmin }: NewTemplateButtonProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const apps = useQuery(appsQuery);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = (apps.data ?? []).filter((app) => app.active);

  const go = (path: string) => {
    setAnchor(null);
    void navigate(path);
  };

  return (
    <>
      <Button
        variant="contained"
        disableElevation
        startIcon={<AddIcon />}
        endIcon={<ArrowDropDownIcon />}
        disabled={apps.isPending || (active.length === 0 && !isAdmin)}
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
      >
        {t('templates.newTemplate')}
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {active.map((app) => (
          <MenuItem key={app.id} onClick={() => go(paths.newTemplate(projectId, app.id, viewId))}>
            <ListItemIcon>
              <AppIcon app={app} />
            </ListItemIcon>
            <ListItemText primary={app.title || app.id} />
          </MenuItem>
        ))}
        {active.length === 0 ? (
          <MenuItem disabled>
            <ListItemText primary={t('templates.noActiveApps')} />
          </MenuItem>
        ) : null}
        {isAdmin ? <Divider /> : null}
        {isAdmin ? (
          <MenuItem onClick={() => go('/apps')}>
            <ListItemIcon>
              <AppsIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('templates.manageApps')} />
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
