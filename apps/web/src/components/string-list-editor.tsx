import { useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { VERBATIM_INPUT } from '../lib/verbatim-input.ts';

/** The entries a list editor hands over: trimmed, without blanks. */
export function cleanStringList(values: readonly string[]): string[] {
  return values.map((value) => value.trim()).filter((value) => value !== '');
}

interface StringListEditorProps {
  label: string;
  values: readonly string[];
  onChange: (values: string[]) => void;
  addLabel: string;
  /** Accessible name of each entry, e.g. "Argument 2". */
  itemLabel: (index: number) => string;
  placeholder?: string;
  helperText?: string;
  error?: string;
  disabled?: boolean;
}

/** An ordered list of strings (command-line arguments, for instance): one field per entry. */
function StringListEditor({
  label,
  values,
  onChange,
  addLabel,
  itemLabel,
  placeholder,
  helperText,
  error,
  disabled,
}: StringListEditorProps) {
  const { t } = useTranslation();
  const inputs = useRef<Array<HTMLInputElement | null>>([]);

  const add = (at = values.length) => {
    onChange([...values.slice(0, at), '', ...values.slice(at)]);
    // Focus the new entry once it is rendered.
    requestAnimationFrame(() => inputs.current[at]?.focus());
  };

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle2" color={error ? 'error' : undefined} sx={{ mb: 1 }}>
        {label}
      </Typography>
      <Stack spacing={1}>
        {values.map((value, index) => (
          <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TextField
              size="small"
              value={value}
              disabled={disabled}
              placeholder={placeholder}
              inputRef={(element: HTMLInputElement | null) => {
                inputs.current[index] = element;
              }}
              onChange={(event) => onChange(values.map((old, i) => (i === index ? event.target.value : old)))}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  add(index + 1);
                }
              }}
              slotProps={{
                htmlInput: { 'aria-label': itemLabel(index), ...VERBATIM_INPUT, style: { fontFamily: 'monospace' } },
              }}
              fullWidth
            />
            <IconButton
              size="small"
              disabled={disabled}
              onClick={() => onChange(values.filter((_, i) => i !== index))}
              aria-label={t('lists.removeItem', { name: itemLabel(index) })}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Stack>
        ))}
        <Box>
          <Button size="small" startIcon={<AddIcon />} onClick={() => add()} disabled={disabled}>
            {addLabel}
          </Button>
        </Box>
      </Stack>
      {error || helperText ? <FormHelperText error={Boolean(error)}>{error ?? helperText}</FormHelperText> : null}
    </Box>
  );
}

/** A list editor bound to the surrounding form's field `name` (an array of strings). */
export function FormStringListField({
  name,
  ...props
}: Omit<StringListEditorProps, 'values' | 'onChange'> & { name: string }) {
  return (
    <Controller
      name={name}
      render={({ field }) => (
        <StringListEditor {...props} values={Array.isArray(field.value) ? field.value : []} onChange={field.onChange} />
      )}
    />
  );
}
