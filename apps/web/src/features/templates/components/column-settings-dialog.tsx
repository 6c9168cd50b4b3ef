import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';

interface ColumnSettingsDialogProps {
  open: boolean;
  columns: ReadonlyArray<{ id: string; label: string }>;
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
  onClose: () => void;
}

/** Which columns a table shows; the caller keeps the choice. */
export function ColumnSettingsDialog({ open, columns, hidden, onChange, onClose }: ColumnSettingsDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="column-settings-title">
      <DialogTitle id="column-settings-title">{t('templates.columns.title')}</DialogTitle>
      <DialogContent>
        <FormGroup>
          {columns.map((column) => (
            <FormControlLabel
              key={column.id}
              label={column.label}
              control={
                <Checkbox
                  checked={!hidden.includes(column.id)}
                  onChange={(event) =>
                    onChange(event.target.checked ? hidden.filter((id) => id !== column.id) : [...hidden, column.id])
                  }
                />
              }
            />
          ))}
        </FormGroup>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={() => onChange([])} color="inherit">
          {t('templates.columns.showAll')}
        </Button>
        <Button onClick={onClose} variant="contained" disableElevation>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
