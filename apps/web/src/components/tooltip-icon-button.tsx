import type { ReactNode } from 'react';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

interface TooltipIconButtonProps {
  /** What the button does, shown on hover. */
  title: string;
  /** The accessible name, where it says more than the tooltip ("Delete alias https://..."). */
  label?: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  size?: 'small' | 'medium';
}

/** An icon button with its tooltip; the span keeps the tooltip showing while the button is disabled. */
export function TooltipIconButton({
  title,
  label = title,
  icon,
  onClick,
  disabled = false,
  size = 'small',
}: TooltipIconButtonProps) {
  return (
    <Tooltip title={title}>
      <span>
        <IconButton size={size} onClick={onClick} disabled={disabled} aria-label={label}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
}
