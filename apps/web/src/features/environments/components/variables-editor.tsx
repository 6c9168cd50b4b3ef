import { useEffect, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { AddRowButton, RemoveRowButton } from '../../../components/list-row-buttons.tsx';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { fromVariableRows, toVariableRows } from './environment-form.ts';
import type { VariableRow } from './environment-form.ts';
import { VERBATIM_INPUT } from '../../../lib/verbatim-input.ts';

type Mode = 'table' | 'json';

interface VariablesEditorProps {
  label: string;
  /** JSON text of an object. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
  namePlaceholder: string;
  /** Name for tests and screen readers, e.g. "Extra variables". */
  id: string;
}

interface CellFieldProps {
  value: string;
  placeholder: string;
  /** The accessible name ("Variable 2 name"). */
  label: string;
  onChange: (value: string) => void;
  /** The share of the row's width. */
  flex: number;
}

/** A name or a value of a variable row: small, monospace, no spell check. */
function CellField({ value, placeholder, label, onChange, flex }: CellFieldProps) {
  return (
    <TextField
      size="small"
      value={value}
      placeholder={placeholder}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { 'aria-label': label, ...VERBATIM_INPUT } }}
      sx={{ flex, '& input': { fontFamily: 'monospace', fontSize: 13 } }}
    />
  );
}

/** A JSON object of variables, edited as name/value rows or as raw JSON. */
function VariablesEditor({ label, value, onChange, error, namePlaceholder, id }: VariablesEditorProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>(() => (toVariableRows(value) === null ? 'json' : 'table'));
  const [rows, setRows] = useState<VariableRow[] | null>(() => toVariableRows(value));
  // The text this editor produced last: any other value came from outside (a reset) and replaces the rows.
  const emitted = useRef(value);

  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setRows(toVariableRows(value));
    }
  }, [value]);

  const changeRows = (next: VariableRow[]) => {
    setRows(next);
    const text = fromVariableRows(next);
    emitted.current = text;
    onChange(text);
  };

  const changeRow = (index: number, change: Partial<VariableRow>) =>
    changeRows((rows ?? []).map((old, i) => (i === index ? { ...old, ...change } : old)));

  const switchMode = (next: Mode | null) => {
    if (!next || next === mode) return;
    if (next === 'table') setRows(toVariableRows(value));
    setMode(next);
  };

  return (
    <Box component="section" aria-labelledby={`${id}-label`}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography id={`${id}-label`} variant="subtitle2" color={error ? 'error' : undefined}>
          {label}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_, next: Mode | null) => switchMode(next)}
          aria-label={t('environments.viewAs', { name: label })}
        >
          <ToggleButton value="table" sx={{ py: 0.25, px: 1.25 }}>
            {t('environments.table')}
          </ToggleButton>
          <ToggleButton value="json" sx={{ py: 0.25, px: 1.25 }}>
            JSON
          </ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {mode === 'json' ? (
        <TextField
          value={value}
          onChange={(event) => {
            emitted.current = event.target.value;
            onChange(event.target.value);
          }}
          multiline
          minRows={5}
          maxRows={16}
          fullWidth
          error={Boolean(error)}
          placeholder="{}"
          slotProps={{
            htmlInput: { 'aria-label': label, ...VERBATIM_INPUT, style: { fontFamily: 'monospace', fontSize: 13 } },
          }}
        />
      ) : rows === null ? (
        <Alert severity="info">{t('environments.cannotShowTable')}</Alert>
      ) : (
        <Stack spacing={1}>
          {rows.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('environments.noVariables')}
            </Typography>
          ) : null}
          {rows.map((row, index) => (
            <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <CellField
                value={row.name}
                placeholder={namePlaceholder}
                label={t('environments.variableName', { index: index + 1 })}
                onChange={(name) => changeRow(index, { name })}
                flex={2}
              />
              <CellField
                value={row.value}
                placeholder={t('environments.value')}
                label={t('environments.variableValue', { index: index + 1 })}
                onChange={(changed) => changeRow(index, { value: changed })}
                flex={3}
              />
              <RemoveRowButton
                label={t('environments.removeVariable', { index: index + 1 })}
                onClick={() => changeRows(rows.filter((_, i) => i !== index))}
              />
            </Stack>
          ))}
          <AddRowButton
            label={t('environments.addVariable')}
            onClick={() => changeRows([...rows, { name: '', value: '', raw: false }])}
          />
        </Stack>
      )}
      {error ? <FormHelperText error>{error}</FormHelperText> : null}
    </Box>
  );
}

type VariablesFieldProps = { name: 'json' | 'env' } & Pick<VariablesEditorProps, 'label' | 'namePlaceholder' | 'id'>;

/** A VariablesEditor on a text field of the dialog's form, showing the field's error. */
export function VariablesField({ name, ...props }: VariablesFieldProps) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      render={({ field, fieldState }) => (
        <VariablesEditor
          {...props}
          value={typeof field.value === 'string' ? field.value : ''}
          onChange={field.onChange}
          error={fieldState.error?.message ? translateValidationMessage(t, fieldState.error.message) : undefined}
        />
      )}
    />
  );
}
