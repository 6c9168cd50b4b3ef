import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { Runner, RunnerWithToken } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useFormDialog } from '../../../components/use-form-dialog.ts';
import { useSaveRunner, type RunnerScope } from '../api/runners-queries.ts';
import { getRunnerFormDefaults, runnerFormSchema } from './runner-form.ts';
import type { RunnerFormValues } from './runner-form.ts';

interface RunnerDialogProps {
  open: boolean;
  scope: RunnerScope;
  /** The runner to edit; a new runner when absent. */
  runner?: Runner;
  onClose: () => void;
  /** A new runner was created: its token is in the answer, shown once. */
  onCreated: (runner: RunnerWithToken) => void;
}

export function RunnerDialog({ open, scope, runner, onClose, onCreated }: RunnerDialogProps) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const isNew = runner === undefined;
  const { dialogProps } = useFormDialog({
    open,
    onClose,
    isNew,
    itemKey: runner?.id,
    resolver: zodResolver(runnerFormSchema),
    defaults: getRunnerFormDefaults(runner),
    mutation: useSaveRunner(scope),
    toVariables: (values: RunnerFormValues) => ({ ...(runner ? { id: runner.id } : {}), body: values }),
    onSaved: ({ values, result: created }) => {
      if (created) onCreated(created);
      else snackbar.showSuccess(t('runners.saved', { name: values.name }));
    },
  });

  return (
    <FormDialog {...dialogProps} title={isNew ? t('runners.newRunner') : t('runners.editRunner')}>
      <FormTextField name="name" label={t('runners.name')} required autoFocus />
      <FormTextField
        name="webhook"
        label={t('runners.webhook')}
        placeholder="https://"
        verbatim
        helperText={t('runners.webhookHint')}
      />
      <FormTextField
        name="max_parallel_tasks"
        label={t('runners.maxParallelTasks')}
        numeric
        helperText={t('runners.maxParallelTasksHint')}
      />
      <FormCheckbox name="active" label={t('runners.active')} />
    </FormDialog>
  );
}
