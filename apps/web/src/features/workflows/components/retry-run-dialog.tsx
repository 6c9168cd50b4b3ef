import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { WorkflowStepRun } from '@gantry/contract';
import { CancelActions } from '../../../components/cancel-actions.tsx';

// No step key holds '*' (keys are letters, digits, _ and -).
const EVERY_FAILED = '*';

interface RetryRunDialogProps {
  open: boolean;
  steps: readonly WorkflowStepRun[];
  pending: boolean;
  onRetry: (step: string | null) => void;
  onClose: () => void;
}

/** Asks which failed or stopped step a retry runs again: every failed step, or one of them. */
export function RetryRunDialog({ open, steps, pending, onRetry, onClose }: RetryRunDialogProps) {
  const { t } = useTranslation();
  const [step, setStep] = useState(EVERY_FAILED);
  const choices = steps.filter((s) => s.status === 'failed' || s.status === 'stopped');
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="retry-run-title">
      <DialogTitle id="retry-run-title">{t('workflows.retryRunTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('workflows.retryRunExplained')}</DialogContentText>
        <TextField
          select
          fullWidth
          label={t('workflows.retryFrom')}
          value={step}
          onChange={(event) => setStep(event.target.value)}
        >
          <MenuItem value={EVERY_FAILED}>{t('workflows.retryEveryFailed')}</MenuItem>
          {choices.map((s) => (
            <MenuItem key={s.key} value={s.key}>
              {t('workflows.stepWithStatus', { name: s.key, status: t(`workflows.status.${s.status}`) })}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <CancelActions onCancel={onClose}>
        <Button
          onClick={() => onRetry(step === EVERY_FAILED ? null : step)}
          variant="contained"
          disableElevation
          disabled={pending}
        >
          {t('workflows.retryRun')}
        </Button>
      </CancelActions>
    </Dialog>
  );
}
