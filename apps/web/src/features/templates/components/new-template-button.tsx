import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AppsIcon from '@mui/icons-material/Apps';
import Divider from '@mui/material/Divider';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { AddMenuButton } from '../../../components/add-menu-button.tsx';
import { AppIcon } from '../../../components/app-icon.tsx';
import { IconMenuItem } from '../../../components/icon-menu-item.tsx';
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
  const active = (apps.data ?? []).filter((app) => app.active);

  return (
    <AddMenuButton label={t('templates.newTemplate')} disabled={apps.isPending || (active.length === 0 && !isAdmin)}>
      {(closeThen) => [
        ...active.map((app) => (
          <IconMenuItem
            key={app.id}
            icon={<AppIcon app={app} />}
            label={app.title || app.id}
            onClick={closeThen(() => void navigate(paths.newTemplate(projectId, app.id, viewId)))}
          />
        )),
        active.length === 0 ? (
          <MenuItem key="none" disabled>
            <ListItemText primary={t('templates.noActiveApps')} />
          </MenuItem>
        ) : null,
        isAdmin ? <Divider key="divider" /> : null,
        isAdmin ? (
          <IconMenuItem
            key="apps"
            icon={<AppsIcon fontSize="small" />}
            label={t('templates.manageApps')}
            onClick={closeThen(() => void navigate('/apps'))}
          />
        ) : null,
      ]}
    </AddMenuButton>
  );
}
