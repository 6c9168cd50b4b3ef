import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { WorkflowRunDetail, WorkflowVariable } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { useStartWorkflowRun } from '../api/workflows-queries.ts';
import { missingRunValues, runFormValues } from '../workflow-draft.ts';

interface RunDialogProps {
  projectId: number;
  workflowId: number;
  name: string;
  variables: readonly WorkflowVariable[];
  onStarted: (run: WorkflowRunDetail) => void;
  onClose: () => void;
}

/** Starts a run of the workflow's current revision with values for its variables. */
export function RunDialog({ projectId, workflowId, name, variables, onStarted, onClose }: RunDialogProps) {
  const { t } = useTranslation();
  const start = useStartWorkflowRun(projectId, workflowId);
  const [values, setValues] = useState(() => runFormValues(variables));
  const [missing, setMissing] = useState<string[]>([]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = missingRunValues(variables, values);
    setMissing(empty);
    if (empty.length > 0) return;
    start.mutate(values, { onSuccess: onStarted });
  };

  return (
    <FormDialog
      open
      title={t('workflows.runTitle', { name })}
      submitLabel={t('workflows.run')}
      onSubmit={submit}
      onClose={onClose}
      submitting={start.isPending}
      error={start.error ? getErrorMessage(start.error) : null}
      maxWidth="sm"
    >
      {variables.length === 0 ? <Typography color="text.secondary">{t('workflows.runNoVariables')}</Typography> : null}
      {variables.map((variable) => (
        <TextField
          key={variable.name}
          label={variable.title || variable.name}
          value={values[variable.name] ?? ''}
          onChange={(event) => setValues((current) => ({ ...current, [variable.name]: event.target.value }))}
          required={variable.required}
          error={missing.includes(variable.name)}
          helperText={
            missing.includes(variable.name) ? t('workflows.valueRequired') : variable.description || undefined
          }
        />
      ))}
    </FormDialog>
  );
}
