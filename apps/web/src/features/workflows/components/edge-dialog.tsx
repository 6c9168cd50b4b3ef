import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowEdge } from '@gantry/contract';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
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
  const stepChoices = steps.map((step) => ({ value: step.key, label: step.label }));

  return (
    <FormDialog
      open
      title={t('workflows.newEdge')}
      submitLabel={t('workflows.connect')}
      onSubmit={submit}
      onClose={onClose}
      error={error}
    >
      <ChoiceSelect label={t('workflows.edgeFrom')} value={from} choices={stepChoices} onChange={setFrom} required />
      <ChoiceSelect label={t('workflows.edgeTo')} value={to} choices={stepChoices} onChange={setTo} required />
      <ChoiceSelect
        label={t('workflows.edgeOn')}
        value={on}
        choices={EDGE_KINDS.map((kind) => ({ value: kind, label: t(`workflows.edgeKinds.${kind}`) }))}
        onChange={setOn}
      />
    </FormDialog>
  );
}
