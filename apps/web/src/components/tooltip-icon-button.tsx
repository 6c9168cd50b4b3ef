import type { ReactNode } from 'react';
import IconButton, { type IconButtonProps } from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';

export type TooltipIconButtonProps = Omit<IconButtonProps, 'title' | 'aria-label'> & {
  /** What the tooltip says. */
  title: ReactNode;
  /** The button's accessible name: the title where that is a string, unless said otherwise. */
  label?: string;
};

/**
 * An icon button with a tooltip that names it. One that may be disabled sits in a span: a disabled
 * button fires no pointer events, so the tooltip would never show on it.
 */
export function TooltipIconButton({ title, label, disabled, ...props }: TooltipIconButtonProps) {
  const button = (
    <IconButton {...props} disabled={disabled} aria-label={label ?? (typeof title === 'string' ? title : undefined)} />
  );
  return <Tooltip title={title}>{disabled === undefined ? button : <span>{button}</span>}</Tooltip>;
}
