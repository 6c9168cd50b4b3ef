import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import type { SxProps, Theme } from '@mui/material/styles';

/*
 * The buttons of a list edited row by row in a form (variables, secrets, vaults, survey values): a
 * small "add" on a line of its own under the rows, a small cross at the end of a row.
 */

interface AddRowButtonProps {
  label: string;
  onClick: () => void;
  sx?: SxProps<Theme>;
}

export function AddRowButton({ label, onClick, sx }: AddRowButtonProps) {
  return (
    <Box sx={sx}>
      <Button size="small" startIcon={<AddIcon />} onClick={onClick}>
        {label}
      </Button>
    </Box>
  );
}

interface RemoveRowButtonProps {
  /** The accessible name, naming the row ("Remove variable 2"). */
  label: string;
  onClick: () => void;
}

export function RemoveRowButton({ label, onClick }: RemoveRowButtonProps) {
  return (
    <IconButton size="small" onClick={onClick} aria-label={label}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}
