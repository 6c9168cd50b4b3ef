import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';

interface CancelActionsProps {
  onCancel: () => void;
  /** While the dialog's action is under way. */
  disabled?: boolean;
  /** The dialog's own buttons, after Cancel. */
  children?: ReactNode;
}

/** A dialog's row of buttons: Cancel, then what the dialog does. */
export function CancelActions({ onCancel, disabled, children }: CancelActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions sx={{ px: 3, pb: 2 }}>
      <Button onClick={onCancel} color="inherit" disabled={disabled}>
        {t('common.cancel')}
      </Button>
      {children}
    </DialogActions>
  );
}
