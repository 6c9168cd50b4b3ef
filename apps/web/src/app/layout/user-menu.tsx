import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import AppsIcon from '@mui/icons-material/Apps';
import CheckIcon from '@mui/icons-material/Check';
import DarkModeOutlinedIcon from '@mui/icons-material/DarkModeOutlined';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import MemoryIcon from '@mui/icons-material/Memory';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutline';
import PendingActionsIcon from '@mui/icons-material/PendingActions';
import SecurityIcon from '@mui/icons-material/Security';
import TranslateIcon from '@mui/icons-material/Translate';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { CurrentUser, SystemInfo } from '@gantry/contract';
import { IconMenuItem } from '../../components/icon-menu-item.tsx';
import { useDialogState } from '../../components/use-dialog-state.ts';
import { useMenuAnchor } from '../../components/use-menu-anchor.ts';
import { useLogout } from '../../features/auth/api/auth-queries.ts';
import { ChangePasswordDialog } from '../../features/users/components/change-password-dialog.tsx';
import { UserDialog } from '../../features/users/components/user-dialog.tsx';
import { LANGUAGE_NAMES, PICKER_LANGUAGES, changeLanguage, getLanguageChoice } from '../../lib/i18n.ts';
import type { LanguageChoice } from '../../lib/i18n.ts';
import { useColorMode } from '../color-mode.tsx';
import { SidebarMenuButton } from './sidebar-menu-button.tsx';
import { paths } from '../../lib/paths.ts';

/** The version shown in the menu: the part before the first hyphen ("2.1.0-beta.3" reads "2.1.0"). */
function formatVersion(version: string): string {
  return version.split('-')[0] ?? version;
}

function initialsOf(name: string): string {
  return (
    name
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .map((word) => Array.from(word)[0] ?? '')
      .join('')
      .toUpperCase() || '?'
  );
}

/** The installation's pages an admin reaches from the menu; runners only where tasks may run on remote runners. */
const ADMIN_PAGES = [
  { path: '/users', labelKey: 'menu.users', icon: <PeopleOutlineIcon fontSize="small" /> },
  { path: '/tasks', labelKey: 'menu.activeTasks', icon: <PendingActionsIcon fontSize="small" /> },
  { path: '/runners', labelKey: 'menu.runners', icon: <MemoryIcon fontSize="small" />, remoteRunnersOnly: true },
  { path: '/apps', labelKey: 'menu.apps', icon: <AppsIcon fontSize="small" /> },
];

interface UserMenuProps {
  user: CurrentUser;
  info: SystemInfo;
  onNavigate: () => void;
}

export function UserMenu({ user, info, onNavigate }: UserMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const colorMode = useColorMode();
  const logout = useLogout();
  const menu = useMenuAnchor();
  const languageMenu = useMenuAnchor();
  const [language, setLanguage] = useState<LanguageChoice>(getLanguageChoice);
  const accountDialog = useDialogState();
  const passwordDialog = useDialogState();

  const go = (path: string) => {
    menu.close();
    onNavigate();
    void navigate(path);
  };
  const pickLanguage = (choice: LanguageChoice) => {
    setLanguage(choice);
    languageMenu.close();
    menu.close();
    void changeLanguage(choice);
  };
  const signOut = () => {
    menu.close();
    logout.mutate(undefined, { onSettled: () => void navigate(paths.login, { replace: true }) });
  };

  const version = formatVersion(info.version);
  const languageLabel = language === 'system' ? t('menu.systemLanguage') : LANGUAGE_NAMES[language];

  return (
    <>
      <SidebarMenuButton
        menu={menu}
        label={t('menu.userMenu')}
        avatar={
          <Avatar sx={{ width: 32, height: 32, fontSize: 13, fontWeight: 600, bgcolor: 'secondary.main' }}>
            {initialsOf(user.name)}
          </Avatar>
        }
        primary={user.name}
        secondary={user.username}
        primaryVariant="body2"
        endIcon={<ExpandLessIcon fontSize="small" sx={{ color: 'text.secondary' }} />}
      />

      <Menu
        {...menu.menuProps}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: 244 } } }}
      >
        <MenuItem onClick={() => colorMode.setMode(colorMode.mode === 'dark' ? 'light' : 'dark')}>
          <ListItemIcon>
            <DarkModeOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('menu.darkMode')} />
          <Switch
            size="small"
            edge="end"
            checked={colorMode.mode === 'dark'}
            tabIndex={-1}
            slotProps={{ input: { 'aria-label': t('menu.darkMode') } }}
          />
        </MenuItem>
        <MenuItem onClick={languageMenu.openAt} aria-haspopup="menu">
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('menu.language')} />
          <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 96 }}>
            {languageLabel}
          </Typography>
        </MenuItem>
        {user.admin ? <Divider /> : null}
        {user.admin
          ? ADMIN_PAGES.filter((page) => info.use_remote_runner || !page.remoteRunnersOnly).map((page) => (
              <IconMenuItem key={page.path} icon={page.icon} label={t(page.labelKey)} onClick={() => go(page.path)} />
            ))
          : null}
        <Divider />
        <IconMenuItem
          icon={<ManageAccountsOutlinedIcon fontSize="small" />}
          label={t('menu.editAccount')}
          onClick={menu.closeThen(accountDialog.show)}
        />
        <IconMenuItem
          icon={<SecurityIcon fontSize="small" />}
          label={t('account.menuEntry')}
          onClick={() => go('/account')}
        />
        {user.external ? null : (
          <IconMenuItem
            icon={<LockResetIcon fontSize="small" />}
            label={t('menu.changePassword')}
            onClick={menu.closeThen(passwordDialog.show)}
          />
        )}
        <IconMenuItem icon={<LogoutIcon fontSize="small" />} label={t('menu.signOut')} onClick={signOut} />
        <Divider />
        <Typography variant="caption" color="text.secondary" component="div" sx={{ px: 2, pt: 0.5, pb: 0.5 }}>
          {t('menu.version', { version })}
        </Typography>
      </Menu>

      <Menu
        {...languageMenu.menuProps}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'left' }}
        slotProps={{ paper: { sx: { minWidth: 200, maxHeight: 420 } } }}
      >
        {(['system', ...PICKER_LANGUAGES] as const).map((choice) => (
          <MenuItem key={choice} selected={choice === language} onClick={() => pickLanguage(choice)}>
            <ListItemText primary={choice === 'system' ? t('menu.systemLanguage') : LANGUAGE_NAMES[choice]} />
            {choice === language ? <CheckIcon fontSize="small" color="primary" sx={{ ml: 1 }} /> : null}
          </MenuItem>
        ))}
      </Menu>

      <UserDialog
        open={accountDialog.open}
        user={user}
        viewerIsAdmin={user.admin}
        isSelf
        title={t('menu.editAccount')}
        onClose={accountDialog.close}
      />
      <ChangePasswordDialog open={passwordDialog.open} userId={user.id} onClose={passwordDialog.close} />
    </>
  );
}
