import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { RestoreOutcome } from '../api/backup-queries.ts';

/** Tells what a restore brought back and that its keys need their secrets again. */
export function RestoreResultDialog({
  outcome,
  onClose,
}: {
  outcome: RestoreOutcome | null;
  onClose: (target: 'history' | 'keys') => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={outcome !== null}
      onClose={() => onClose('history')}
      maxWidth="xs"
      fullWidth
      aria-labelledby="restore-result-title"
    >
      <DialogTitle id="restore-result-title">{t('backup.result.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('backup.result.restored', { name: outcome?.name ?? '' })}
        </DialogContentText>
        <Alert severity={outcome?.emptyKeys ? 'warning' : 'info'}>
          {t('backup.result.emptyKeys', { number: outcome?.emptyKeys ?? 0 })} {t('backup.result.updateKeys')}
        </Alert>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={() => onClose('keys')} color="inherit">
          {t('backup.result.openKeys')}
        </Button>
        <Button onClick={() => onClose('history')} variant="contained" disableElevation autoFocus>
          {t('backup.result.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
