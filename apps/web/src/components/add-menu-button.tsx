import type { ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import { useMenuAnchor } from './use-menu-anchor.ts';

interface AddMenuButtonProps {
  label: string;
  disabled?: boolean;
  /** The menu's entries, given a wrapper that closes the menu before an entry's action. */
  children: (closeThen: (action: () => void) => () => void) => ReactNode;
}

/** A page's "New …" button that first asks which kind (New template ▾: one entry per app). */
export function AddMenuButton({ label, disabled = false, children }: AddMenuButtonProps) {
  const menu = useMenuAnchor();
  return (
    <>
      <Button
        variant="contained"
        disableElevation
        startIcon={<AddIcon />}
        endIcon={<ArrowDropDownIcon />}
        disabled={disabled}
        onClick={menu.openAt}
        aria-haspopup="menu"
        aria-expanded={menu.isOpen ? 'true' : undefined}
      >
        {label}
      </Button>
      <Menu
        {...menu.menuProps}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {children(menu.closeThen)}
      </Menu>
    </>
  );
}
