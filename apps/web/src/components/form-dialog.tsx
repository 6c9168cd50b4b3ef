import type { FormEventHandler, ReactNode } from 'react';
import { FormProvider } from 'react-hook-form';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { CancelActions } from './cancel-actions.tsx';
import { FormError } from './form-error.tsx';
import { SubmitButton } from './submit-button.tsx';

export interface FormDialogProps<TInput extends FieldValues, TValues> {
  open: boolean;
  title: string;
  submitLabel: string;
  /** The submit button is red: the form removes or turns something off. */
  destructive?: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClose: () => void;
  submitting?: boolean;
  /** A failed save: shown in red inside the dialog, which stays open. */
  error?: string | null;
  /** Defaults to xs; forms with editors or several columns ask for more. */
  maxWidth?: 'xs' | 'sm' | 'md';
  /** A fixed maximum width in pixels where the seed names one (integration dialogs: 450). */
  width?: number;
  /** The dialog's form: its fields (FormTextField, Controller, ...) take their control from it. */
  form?: UseFormReturn<TInput, unknown, TValues>;
  children: ReactNode;
}

export function FormDialog<TInput extends FieldValues, TValues>({
  open,
  title,
  submitLabel,
  destructive = false,
  onSubmit,
  onClose,
  submitting = false,
  error,
  maxWidth = 'xs',
  width,
  form,
  children,
}: FormDialogProps<TInput, TValues>) {
  return (
    <Dialog
      open={open}
      onClose={submitting ? undefined : onClose}
      maxWidth={maxWidth}
      fullWidth
      aria-labelledby="form-dialog-title"
      slotProps={width ? { paper: { sx: { maxWidth: width } } } : undefined}
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="form-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormError error={error} />
            {form ? <FormProvider {...form}>{children}</FormProvider> : children}
          </Stack>
        </DialogContent>
        <CancelActions onCancel={onClose} disabled={submitting}>
          <SubmitButton pending={submitting} destructive={destructive}>
            {submitLabel}
          </SubmitButton>
        </CancelActions>
      </form>
    </Dialog>
  );
}
