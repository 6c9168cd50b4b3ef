import type { MouseEvent, ReactNode } from 'react';
import ListItemButton from '@mui/material/ListItemButton';
import type { SxProps, Theme } from '@mui/material/styles';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';

interface SidebarMenuButtonProps {
  /** The menu it opens, from useMenuAnchor. */
  menu: { isOpen: boolean; openAt: (event: MouseEvent<HTMLElement>) => void };
  label: string;
  avatar: ReactNode;
  primary: ReactNode;
  secondary: ReactNode;
  /** The arrow at the end, showing which way the menu opens. */
  endIcon: ReactNode;
  /** The primary line's text size where it is not the list's default. */
  primaryVariant?: 'body2';
  sx?: SxProps<Theme>;
}

/** A sidebar row that opens a menu (the project switcher, the user menu): an avatar, two lines and an arrow. */
export function SidebarMenuButton({
  menu,
  label,
  avatar,
  primary,
  secondary,
  endIcon,
  primaryVariant,
  sx,
}: SidebarMenuButtonProps) {
  return (
    <ListItemButton
      onClick={menu.openAt}
      aria-haspopup="menu"
      aria-expanded={menu.isOpen}
      aria-label={label}
      sx={[{ borderRadius: 2, py: 1, px: 1.25 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      <ListItemIcon sx={{ minWidth: 44 }}>{avatar}</ListItemIcon>
      <ListItemText
        primary={primary}
        secondary={secondary}
        slotProps={{
          primary: { noWrap: true, ...(primaryVariant ? { variant: primaryVariant } : {}), sx: { fontWeight: 600 } },
          secondary: { noWrap: true, variant: 'caption' },
        }}
      />
      {endIcon}
    </ListItemButton>
  );
}
