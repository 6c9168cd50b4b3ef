import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { WorkflowVariable } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { translateValidationMessage } from '../../../lib/i18n.ts';

interface VariableDialogProps {
  variable?: WorkflowVariable;
  onSave: (variable: WorkflowVariable) => void;
  onClose: () => void;
}

/** Adds or edits one of the workflow's variables, asked for when a run starts. */
export function VariableDialog({ variable, onSave, onClose }: VariableDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState<WorkflowVariable>(
    variable ?? { name: '', title: '', description: '', required: false, default_value: '' },
  );
  const [error, setError] = useState<string | null>(null);
  const set = (changes: Partial<WorkflowVariable>) => setValue((current) => ({ ...current, ...changes }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = WorkflowVariable.safeParse({ ...value, name: value.name.trim() });
    if (!parsed.success) {
      setError(translateValidationMessage(t, parsed.error.issues[0]?.message ?? ''));
      return;
    }
    onSave(parsed.data);
  };

  return (
    <FormDialog
      open
      title={t(variable ? 'workflows.editVariable' : 'workflows.newVariable')}
      submitLabel={t('workflows.applyVariable')}
      onSubmit={submit}
      onClose={onClose}
      error={error}
    >
      <TextField
        label={t('workflows.variableName')}
        value={value.name}
        onChange={(event) => set({ name: event.target.value })}
        required
      />
      <TextField
        label={t('workflows.variableTitle')}
        value={value.title}
        onChange={(event) => set({ title: event.target.value })}
      />
      <TextField
        label={t('workflows.description')}
        value={value.description}
        onChange={(event) => set({ description: event.target.value })}
        multiline
        minRows={2}
      />
      <TextField
        label={t('workflows.defaultValue')}
        value={value.default_value}
        onChange={(event) => set({ default_value: event.target.value })}
      />
      <FormControlLabel
        control={<Checkbox checked={value.required} onChange={(event) => set({ required: event.target.checked })} />}
        label={t('workflows.variableRequired')}
      />
    </FormDialog>
  );
}
