import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';

interface ArgsEditorProps {
  label: string;
  value: string[];
  onChange: (args: string[]) => void;
  helperText?: string;
  disabled?: boolean;
}

/** A list of command-line arguments: one chip per argument (click to edit, × to remove), a field to add one. */
export function ArgsEditor({ label, value, onChange, helperText, disabled = false }: ArgsEditorProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const commit = () => {
    const arg = draft.trim();
    if (!arg) {
      setError(t('newTask.argRequired'));
      return;
    }
    onChange(editing === null ? [...value, arg] : value.map((item, index) => (index === editing ? arg : item)));
    setDraft('');
    setEditing(null);
    setError(null);
  };

  return (
    <Box
      component="fieldset"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 1.5, pt: 0.5, pb: 1.5, m: 0 }}
    >
      <Typography component="legend" variant="caption" color="text.secondary" sx={{ px: 0.5 }}>
        {label}
      </Typography>
      {value.length > 0 ? (
        <Stack direction="row" useFlexGap spacing={0.75} sx={{ flexWrap: 'wrap', mb: 1 }}>
          {value.map((arg, index) => (
            <Chip
              key={`${index}-${arg}`}
              label={arg}
              size="small"
              color={editing === index ? 'primary' : 'default'}
              disabled={disabled}
              onClick={() => {
                setEditing(index);
                setDraft(arg);
                setError(null);
              }}
              onDelete={() => {
                onChange(value.filter((_, i) => i !== index));
                if (editing === index) {
                  setEditing(null);
                  setDraft('');
                }
              }}
              sx={{ fontFamily: 'monospace', maxWidth: '100%' }}
            />
          ))}
        </Stack>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          fullWidth
          disabled={disabled}
          label={editing === null ? t('newTask.addArg') : t('newTask.editArg')}
          value={draft}
          error={error !== null}
          helperText={error ?? helperText}
          onChange={(event) => {
            setDraft(event.target.value);
            if (error) setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            }
          }}
          slotProps={{ htmlInput: { ...VERBATIM_INPUT, style: { fontFamily: 'monospace' } } }}
        />
        <IconButton
          onClick={commit}
          disabled={disabled}
          aria-label={editing === null ? t('newTask.addArg') : t('newTask.editArg')}
          sx={{ mt: 0.25 }}
        >
          <AddIcon />
        </IconButton>
      </Stack>
    </Box>
  );
}
