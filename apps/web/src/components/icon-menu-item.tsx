import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';

interface IconMenuItemProps {
  icon: ReactNode;
  label: string;
  onClick?: () => void;
  /** A link to another page rather than an action here. */
  to?: string;
  disabled?: boolean;
  /** A destructive action (delete): shown in the error colour. */
  danger?: boolean;
}

/** One entry of a pop-up menu: an icon and its label. */
export function IconMenuItem({ icon, label, onClick, to, disabled = false, danger = false }: IconMenuItemProps) {
  const content = (
    <>
      <ListItemIcon sx={danger ? { color: 'inherit' } : undefined}>{icon}</ListItemIcon>
      <ListItemText primary={label} />
    </>
  );
  const sx = danger ? { color: 'error.main' } : undefined;
  return to === undefined ? (
    <MenuItem onClick={onClick} disabled={disabled} sx={sx}>
      {content}
    </MenuItem>
  ) : (
    <MenuItem component={RouterLink} to={to} onClick={onClick} disabled={disabled} sx={sx}>
      {content}
    </MenuItem>
  );
}
