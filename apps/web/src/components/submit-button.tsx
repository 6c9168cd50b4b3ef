import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';

interface SubmitButtonProps {
  /** The form is being sent: the button spins and cannot be pressed again. */
  pending: boolean;
  /** Off for another reason too (an incomplete code, say). */
  disabled?: boolean;
  size?: 'medium' | 'large';
  /** A form that removes or turns something off: its button is red, as confirmations of such steps are. */
  destructive?: boolean;
  children: ReactNode;
}

/** A form's main button: submits it, and shows a spinner while the request runs. */
export function SubmitButton({ pending, disabled = false, size, destructive = false, children }: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      variant="contained"
      color={destructive ? 'error' : 'primary'}
      size={size}
      disableElevation
      disabled={pending || disabled}
      startIcon={pending ? <CircularProgress size={size === 'large' ? 18 : 16} color="inherit" /> : undefined}
    >
      {children}
    </Button>
  );
}
