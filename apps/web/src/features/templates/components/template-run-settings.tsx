import { Controller, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import type { AccessKey } from '@gantry/contract';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { FormStringListField } from '../../../components/string-list-editor.tsx';
import { getFirstErrorMessage } from '../../../lib/form-errors.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import { ApprovalEditor } from './approval-editor.tsx';
import { SurveyVarsEditor } from './survey-vars-editor.tsx';
import { appUsesVaults } from './template-form.ts';
import type { TemplateFormFields } from './template-form.ts';
import { VaultsEditor } from './vaults-editor.tsx';

interface TemplateRunSettingsProps {
  projectId: number;
  app: string;
  /** The project's keys, for the vault passwords. */
  keys: AccessKey[];
}

/** The template form's second column: what a task of the template asks and how it runs (within the form's context). */
export function TemplateRunSettings({ projectId, app, keys }: TemplateRunSettingsProps) {
  const { t } = useTranslation();
  const { errors } = useFormState<TemplateFormFields>();
  const approvalError = getFirstErrorMessage(errors.approval);
  return (
    <Stack spacing={3}>
      <Controller
        name="survey_vars"
        render={({ field }) => <SurveyVarsEditor value={field.value} onChange={field.onChange} />}
      />
      {appUsesVaults(app) ? <VaultsEditor errors={errors.vaults} keys={keys} /> : null}
      <FormStringListField
        name="arguments"
        label={t('templates.form.cliArgs')}
        addLabel={t('templates.form.addArg')}
        itemLabel={(index) => t('templates.form.argN', { n: index + 1 })}
        placeholder="--verbose"
        helperText={t('templates.form.cliArgsHint')}
      />
      <Controller
        name="approval"
        render={({ field }) => (
          <ApprovalEditor
            projectId={projectId}
            value={field.value}
            onChange={field.onChange}
            error={approvalError && translateValidationMessage(t, approvalError)}
          />
        )}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <FormTextField
          name="retries"
          label={t('templates.form.retries')}
          helperText={t('templates.form.retriesHint')}
          numeric
        />
        <FormTextField name="retry_delay_seconds" label={t('templates.form.retryDelay')} numeric />
      </Stack>
      <Stack>
        <FormCheckbox name="allow_override_args_in_task" label={t('templates.form.allowOverrideArgs')} />
        <FormCheckbox name="allow_parallel_tasks" label={t('templates.form.allowParallel')} />
        <FormCheckbox name="suppress_success_alerts" label={t('templates.form.suppressSuccessAlerts')} />
      </Stack>
    </Stack>
  );
}
