import type { ReactNode } from 'react';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';

interface NewButtonProps {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** A plus unless the kind has its own (a person for users and members). */
  icon?: ReactNode;
}

/** A page's main "new ..." button, in its header. */
export function NewButton({ label, onClick, disabled, icon = <AddIcon /> }: NewButtonProps) {
  return (
    <Button variant="contained" disableElevation startIcon={icon} disabled={disabled} onClick={onClick}>
      {label}
    </Button>
  );
}
