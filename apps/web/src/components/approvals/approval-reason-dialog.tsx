import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import TextField from '@mui/material/TextField';
import { APPROVAL_LIMITS } from '@gantry/contract';
import { getErrorMessage } from '../../lib/api-client.ts';
import { FormDialog } from '../form-dialog.tsx';
import { useSnackbar } from '../snackbar-provider.tsx';
import type { Decision } from './approval-decisions.tsx';

interface ApprovalReasonDialogProps {
  decision: Decision;
  title: string;
  /** Shown once the decision is recorded. */
  doneMessage: string;
  /** Records the decision with its reason: a mutation's `mutate`, its state below. */
  decide: (reason: string, callbacks: { onSuccess: () => void }) => void;
  submitting: boolean;
  error: Error | null;
  onClose: () => void;
}

/** Asks for the reason every decision needs, then approves or rejects. */
export function ApprovalReasonDialog({
  decision,
  title,
  doneMessage,
  decide,
  submitting,
  error,
  onClose,
}: ApprovalReasonDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setMissing(true);
      return;
    }
    decide(reason, {
      onSuccess: () => {
        snackbar.showSuccess(doneMessage);
        onClose();
      },
    });
  };
  return (
    <FormDialog
      open
      title={title}
      submitLabel={t(decision === 'approve' ? 'approvals.approve' : 'approvals.reject')}
      onSubmit={submit}
      onClose={onClose}
      submitting={submitting}
      error={error ? getErrorMessage(error) : null}
      maxWidth="sm"
    >
      <TextField
        label={t('approvals.reason')}
        value={reason}
        onChange={(event) => {
          setReason(event.target.value);
          setMissing(false);
        }}
        required
        multiline
        minRows={3}
        autoFocus
        error={missing}
        helperText={missing ? t('approvals.reasonRequired') : undefined}
        slotProps={{ htmlInput: { maxLength: APPROVAL_LIMITS.reason } }}
      />
    </FormDialog>
  );
}
