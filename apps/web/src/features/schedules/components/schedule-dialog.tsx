import { useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Schedule } from '@gantry/contract';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormSelectField } from '../../../components/form-select-field.tsx';
import type { ItemDialogProps } from '../../../components/resource-list-page.tsx';
import { useItemFormDialog } from '../../../components/use-item-form-dialog.ts';
import { RunTargetFields } from '../../../components/run-target-fields.tsx';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { getCheckIntervalLabel, listCheckIntervals } from '../../../lib/check-intervals.ts';
import { repositoriesQuery, templatesQuery, workflowChoicesQuery } from '../../../lib/project-resources.ts';
import { systemInfoQuery } from '../../../lib/shared-queries.ts';
import { schedulesResource, useSaveSchedule, validateCron } from '../api/schedules-queries.ts';
import { CronBuilder } from './cron-builder.tsx';
import { NextRuns } from './next-runs.tsx';
import { ScheduleFormSchema, getFormCron, getScheduleFormDefaults, toScheduleBody } from './schedule-form.ts';
import type { ScheduleFormFields } from './schedule-form.ts';

export function ScheduleDialog({ open, projectId, item: schedule, onClose }: ItemDialogProps<Schedule>) {
  const { t } = useTranslation();
  const templates = useQuery({ ...templatesQuery(projectId), enabled: open });
  const repositories = useQuery({ ...repositoriesQuery(projectId), enabled: open });
  const workflows = useQuery({ ...workflowChoicesQuery(projectId), enabled: open });
  const info = useQuery({ ...systemInfoQuery, enabled: open });
  const [checkError, setCheckError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { form, dialogProps } = useItemFormDialog({
    open,
    onClose,
    item: schedule,
    resolver: zodResolver(ScheduleFormSchema),
    defaults: getScheduleFormDefaults(schedule),
    mutation: useSaveSchedule(projectId),
    onOpen: () => setCheckError(null),
    // The server has the last word on the expression: it is checked again right before saving.
    toVariables: async (values: ScheduleFormFields) => {
      setCheckError(null);
      setChecking(true);
      try {
        await validateCron(projectId, getFormCron(values));
      } catch (error) {
        const message = getErrorMessage(error);
        if (isApiError(error, 400) && values.mode === 'raw' && !values.run_on_commit)
          form.setError('cron_format', { message });
        else setCheckError(message);
        return undefined;
      } finally {
        setChecking(false);
      }
      return { id: schedule?.id, body: toScheduleBody(values, projectId, schedule) };
    },
    texts: schedulesResource.texts,
    nameOf: ({ variables }) => variables.body.name,
    otherErrors: [checkError, templates.error, repositories.error, workflows.error],
  });
  const fields = form.watch();
  const cron = getFormCron(fields);

  return (
    <FormDialog {...dialogProps} maxWidth="sm" submitting={checking || dialogProps.submitting}>
      <FormTextField name="name" label={t('schedules.name')} required autoFocus />
      <RunTargetFields
        section="schedules"
        target={fields.target}
        templates={templates.data}
        workflows={workflows.data}
        workflowFields={
          <FormTextField
            name="workflow_variables"
            label={t('schedules.workflowVariables')}
            helperText={t('schedules.workflowVariablesHint')}
            multiline
            minRows={2}
          />
        }
      />
      <FormCheckbox name="run_on_commit" label={t('schedules.runOnCommit')} />
      {fields.run_on_commit ? (
        <>
          <FormSelectField
            name="repository_id"
            label={t('schedules.repository')}
            required
            helperText={t('schedules.repositoryHint')}
            options={(repositories.data ?? []).map((repository) => ({
              value: repository.id,
              label: repository.git_branch ? `${repository.name} (${repository.git_branch})` : repository.name,
            }))}
          />
          <FormSelectField
            name="check_interval"
            label={t('schedules.checkInterval')}
            required
            options={listCheckIntervals(fields.check_interval).map((interval) => ({
              value: interval,
              label: getCheckIntervalLabel(t, interval),
            }))}
          />
        </>
      ) : (
        <CronBuilder setValue={form.setValue} fields={fields} />
      )}
      <NextRuns
        projectId={projectId}
        cron={cron}
        timeZone={info.data?.schedule_timezone}
        checksOnly={fields.run_on_commit}
      />
    </FormDialog>
  );
}
