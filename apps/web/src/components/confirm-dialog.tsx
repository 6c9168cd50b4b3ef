import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { CancelActions } from './cancel-actions.tsx';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: ReactNode;
  /** Defaults to "Delete"; the button is red because every confirmation guards something destructive. */
  confirmLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="confirm-dialog-title">
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{message}</DialogContentText>
      </DialogContent>
      <CancelActions onCancel={onClose}>
        <Button
          onClick={() => {
            onConfirm();
            onClose();
          }}
          color="error"
          variant="contained"
          disableElevation
          autoFocus
        >
          {confirmLabel ?? t('common.delete')}
        </Button>
      </CancelActions>
    </Dialog>
  );
}

/** A dialog's state about an item (useDialogState). */
interface ItemDialogState<T> {
  open: boolean;
  item?: T;
  close: () => void;
}

/**
 * The open, close and confirm of a ConfirmDialog that asks about the item of `dialog`: confirming
 * hands that item to `onConfirm`.
 */
export function confirmItem<T>(dialog: ItemDialogState<T>, onConfirm: (item: T) => void) {
  return {
    open: dialog.open,
    onClose: dialog.close,
    onConfirm: () => {
      if (dialog.item !== undefined) onConfirm(dialog.item);
    },
  };
}
