import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DataObjectIcon from '@mui/icons-material/DataObject';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HubOutlinedIcon from '@mui/icons-material/HubOutlined';
import KeyOutlinedIcon from '@mui/icons-material/KeyOutlined';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import SchemaOutlinedIcon from '@mui/icons-material/SchemaOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { Permission } from '@gantry/contract';
import type { Project } from '@gantry/contract';
import { useProjectAccess } from '../../lib/shared-queries.ts';
import { paths } from '../../lib/paths.ts';

interface NavEntry {
  /** Path segment under /project/:id; also the segments that keep the entry highlighted. */
  segment: string;
  also?: readonly string[];
  labelKey: string;
  icon: ReactNode;
}

export function ProjectNav({ project, onNavigate }: { project: Project; onNavigate: () => void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const access = useProjectAccess(project.id);
  const base = paths.project(project.id);
  const activeSegment = location.pathname.startsWith(`${base}/`)
    ? location.pathname.slice(base.length + 1).split('/')[0]
    : undefined;
  const isPlain = project.type === '';

  const entries: NavEntry[] = [
    {
      segment: 'history',
      also: ['hosts', 'logs', 'activity', 'runners'],
      labelKey: 'menu.dashboard',
      icon: <DashboardOutlinedIcon />,
    },
  ];
  if (isPlain) {
    entries.push(
      { segment: 'templates', also: ['views'], labelKey: 'menu.templates', icon: <PlaylistPlayIcon /> },
      { segment: 'workflows', labelKey: 'menu.workflows', icon: <SchemaOutlinedIcon /> },
      { segment: 'schedule', labelKey: 'menu.schedule', icon: <EventRepeatOutlinedIcon /> },
      { segment: 'inventory', labelKey: 'menu.inventory', icon: <DnsOutlinedIcon /> },
      { segment: 'environment', labelKey: 'menu.environment', icon: <DataObjectIcon /> },
      { segment: 'keys', labelKey: 'menu.keys', icon: <KeyOutlinedIcon /> },
      { segment: 'repositories', labelKey: 'menu.repositories', icon: <AccountTreeOutlinedIcon /> },
      { segment: 'integrations', labelKey: 'menu.integrations', icon: <HubOutlinedIcon /> },
    );
  }
  entries.push({ segment: 'team', labelKey: 'menu.team', icon: <GroupOutlinedIcon /> });
  if (access.can(Permission.updateProject)) {
    entries.push({ segment: 'settings', labelKey: 'menu.settings', icon: <SettingsOutlinedIcon /> });
  }

  return (
    <List component="nav" aria-label={t('menu.projectNavigation')} sx={{ display: 'grid', gap: 0.25 }}>
      {entries.map((entry) => {
        const selected =
          activeSegment === entry.segment ||
          (activeSegment !== undefined && (entry.also ?? []).includes(activeSegment));
        return (
          <ListItemButton
            key={entry.segment}
            component={RouterLink}
            to={`${base}/${entry.segment}`}
            selected={selected}
            aria-current={selected ? 'page' : undefined}
            onClick={onNavigate}
            sx={{ py: 0.75 }}
          >
            <ListItemIcon>{entry.icon}</ListItemIcon>
            <ListItemText
              primary={t(entry.labelKey)}
              slotProps={{ primary: { variant: 'body2', sx: { fontWeight: 500 } } }}
            />
          </ListItemButton>
        );
      })}
    </List>
  );
}
