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
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { CurrentUser, SystemInfo } from '@gantry/contract';
import { useDialogState } from '../../components/use-dialog-state.ts';
import { useLogout } from '../../features/auth/api/auth-queries.ts';
import { ChangePasswordDialog } from '../../features/users/components/change-password-dialog.tsx';
import { UserDialog } from '../../features/users/components/user-dialog.tsx';
import { LANGUAGE_NAMES, PICKER_LANGUAGES, changeLanguage, getLanguageChoice } from '../../lib/i18n.ts';
import type { LanguageChoice } from '../../lib/i18n.ts';
import { useColorMode } from '../color-mode.tsx';
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
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [languageAnchor, setLanguageAnchor] = useState<HTMLElement | null>(null);
  const [language, setLanguage] = useState<LanguageChoice>(getLanguageChoice);
  const accountDialog = useDialogState();
  const passwordDialog = useDialogState();

  const close = () => setAnchor(null);
  const go = (path: string) => {
    close();
    onNavigate();
    void navigate(path);
  };
  const pickLanguage = (choice: LanguageChoice) => {
    setLanguage(choice);
    setLanguageAnchor(null);
    close();
    void changeLanguage(choice);
  };
  const signOut = () => {
    close();
    logout.mutate(undefined, { onSettled: () => void navigate(paths.login, { replace: true }) });
  };

  const version = formatVersion(info.version);
  const languageLabel = language === 'system' ? t('menu.systemLanguage') : LANGUAGE_NAMES[language];

  return (
    <>
      <ListItemButton
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        aria-label={t('menu.userMenu')}
        sx={{ borderRadius: 2, py: 1, px: 1.25 }}
      >
        <ListItemIcon sx={{ minWidth: 44 }}>
          <Avatar sx={{ width: 32, height: 32, fontSize: 13, fontWeight: 600, bgcolor: 'secondary.main' }}>
            {initialsOf(user.name)}
          </Avatar>
        </ListItemIcon>
        <ListItemText
          primary={user.name}
          secondary={user.username}
          slotProps={{
            primary: { noWrap: true, variant: 'body2', sx: { fontWeight: 600 } },
            secondary: { noWrap: true, variant: 'caption' },
          }}
        />
        <ExpandLessIcon fontSize="small" sx={{ color: 'text.secondary' }} />
      </ListItemButton>

      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
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
        <MenuItem onClick={(event) => setLanguageAnchor(event.currentTarget)} aria-haspopup="menu">
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('menu.language')} />
          <Typography variant="body2" color="text.secondary" noWrap sx={{ maxWidth: 96 }}>
            {languageLabel}
          </Typography>
        </MenuItem>
        {user.admin ? <Divider /> : null}
        {user.admin ? (
          <MenuItem onClick={() => go('/users')}>
            <ListItemIcon>
              <PeopleOutlineIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('menu.users')} />
          </MenuItem>
        ) : null}
        {user.admin ? (
          <MenuItem onClick={() => go('/tasks')}>
            <ListItemIcon>
              <PendingActionsIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('menu.activeTasks')} />
          </MenuItem>
        ) : null}
        {user.admin && info.use_remote_runner ? (
          <MenuItem onClick={() => go('/runners')}>
            <ListItemIcon>
              <MemoryIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('menu.runners')} />
          </MenuItem>
        ) : null}
        {user.admin ? (
          <MenuItem onClick={() => go('/apps')}>
            <ListItemIcon>
              <AppsIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('menu.apps')} />
          </MenuItem>
        ) : null}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            accountDialog.show();
          }}
        >
          <ListItemIcon>
            <ManageAccountsOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('menu.editAccount')} />
        </MenuItem>
        <MenuItem onClick={() => go('/account')}>
          <ListItemIcon>
            <SecurityIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('account.menuEntry')} />
        </MenuItem>
        {user.external ? null : (
          <MenuItem
            onClick={() => {
              close();
              passwordDialog.show();
            }}
          >
            <ListItemIcon>
              <LockResetIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={t('menu.changePassword')} />
          </MenuItem>
        )}
        <MenuItem onClick={signOut}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={t('menu.signOut')} />
        </MenuItem>
        <Divider />
        <Typography variant="caption" color="text.secondary" component="div" sx={{ px: 2, pt: 0.5, pb: 0.5 }}>
          {t('menu.version', { version })}
        </Typography>
      </Menu>

      <Menu
        anchorEl={languageAnchor}
        open={languageAnchor !== null}
        onClose={() => setLanguageAnchor(null)}
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
