import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { CreateProjectBody, MaxParallelTasks } from '@gantry/contract';
import { FormError } from '../../../components/form-error.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';

/** The text field holds what was typed; an empty field means "not set" (unlimited). */
const typedInteger = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
};

const ProjectFormSchema = CreateProjectBody.pick({ name: true, alert: true, alert_chat: true }).extend({
  max_parallel_tasks: z.preprocess(typedInteger, MaxParallelTasks.nullable()),
});
export type ProjectFormInput = z.input<typeof ProjectFormSchema>;
export type ProjectFormValues = z.output<typeof ProjectFormSchema>;

interface ProjectFormProps {
  defaultValues?: { name: string; alert: boolean; alert_chat: string | null; max_parallel_tasks: number };
  submitLabel: string;
  submitting: boolean;
  error: string | null;
  onSubmit: (values: ProjectFormValues) => void;
  /** A second way to submit the same fields, e.g. "Create demo project". */
  secondaryAction?: { label: string; onSubmit: (values: ProjectFormValues) => void };
}

export function ProjectForm({
  defaultValues,
  submitLabel,
  submitting,
  error,
  onSubmit,
  secondaryAction,
}: ProjectFormProps) {
  const { t } = useTranslation();
  const form = useForm<ProjectFormInput, unknown, ProjectFormValues>({
    resolver: zodResolver(ProjectFormSchema),
    defaultValues: {
      name: defaultValues?.name ?? '',
      alert: defaultValues?.alert ?? false,
      alert_chat: defaultValues?.alert_chat ?? '',
      max_parallel_tasks: defaultValues?.max_parallel_tasks ? String(defaultValues.max_parallel_tasks) : '',
    },
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label={t('projects.form.label')}>
        {/* Seed 000 section 9: the project form area is 300 px high; the alert switch and its chat share a line. */}
        <Stack spacing={2} sx={{ maxWidth: 640 }}>
          <FormError error={error} />
          <FormTextField name="name" label={t('projects.form.name')} required />
          <FormTextField
            name="max_parallel_tasks"
            label={t('projects.form.maxParallelTasks')}
            helperText={t('projects.form.maxParallelTasksHint')}
            numeric
          />
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={{ xs: 1, sm: 2 }}
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <Box sx={{ flexShrink: 0, pt: { sm: 1 } }}>
              <FormCheckbox name="alert" label={t('projects.form.alert')} />
            </Box>
            <FormTextField
              name="alert_chat"
              label={t('projects.form.alertChat')}
              helperText={t('projects.form.alertChatHint')}
              verbatim
              sx={{ flex: 1 }}
            />
          </Stack>
          <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <SubmitButton pending={submitting}>{submitLabel}</SubmitButton>
            {secondaryAction ? (
              <Button variant="outlined" disabled={submitting} onClick={form.handleSubmit(secondaryAction.onSubmit)}>
                {secondaryAction.label}
              </Button>
            ) : null}
          </Stack>
        </Stack>
      </form>
    </FormProvider>
  );
}

/** The wire body of a project form: an empty chat id is no chat id, an empty limit is unlimited. */
export function toProjectBody(values: ProjectFormValues) {
  return {
    name: values.name,
    alert: values.alert ?? false,
    alert_chat: values.alert_chat?.trim() ? values.alert_chat.trim() : null,
    max_parallel_tasks: values.max_parallel_tasks ?? 0,
  };
}
