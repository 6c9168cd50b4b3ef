import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { WorkflowEdge } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { EDGE_KINDS } from '../workflow-draft.ts';
import type { EdgeKind } from '../workflow-draft.ts';

interface EdgeDialogProps {
  /** The steps' keys and labels, in order. */
  steps: readonly { key: string; label: string }[];
  /** The steps a drag between them chose; the first two steps otherwise. */
  initial?: { from: string; to: string };
  onSave: (edge: WorkflowEdge) => void;
  onClose: () => void;
}

/** Connects two steps: the second starts after the first succeeded, failed, or either. */
export function EdgeDialog({ steps, initial, onSave, onClose }: EdgeDialogProps) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(initial?.from ?? steps[0]?.key ?? '');
  const [to, setTo] = useState(initial?.to ?? steps[1]?.key ?? '');
  const [on, setOn] = useState<EdgeKind>('success');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to || from === to) {
      setError(t('workflows.edgeSameStep'));
      return;
    }
    onSave({ from, to, on });
  };
  const stepSelect = (label: string, value: string, change: (key: string) => void) => (
    <TextField select label={label} value={value} onChange={(event) => change(event.target.value)} required>
      {steps.map((step) => (
        <MenuItem key={step.key} value={step.key}>
          {step.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <FormDialog
      open
      title={t('workflows.newEdge')}
      submitLabel={t('workflows.connect')}
      onSubmit={submit}
      onClose={onClose}
      error={error}
    >
      {stepSelect(t('workflows.edgeFrom'), from, setFrom)}
      {stepSelect(t('workflows.edgeTo'), to, setTo)}
      <TextField
        select
        label={t('workflows.edgeOn')}
        value={on}
        onChange={(event) => setOn(EDGE_KINDS.find((kind) => kind === event.target.value) ?? 'success')}
      >
        {EDGE_KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {t(`workflows.edgeKinds.${kind}`)}
          </MenuItem>
        ))}
      </TextField>
    </FormDialog>
  );
}
