import { useEffect, useMemo, useState } from 'react';
import type { ChangeEvent, Ref } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import CallSplitIcon from '@mui/icons-material/CallSplit';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Template, TaskWithTemplate } from '@gantry/contract';
import { FormDialog } from '../../../components/form-dialog.tsx';
import { FormTextField } from '../../../components/form-fields.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { DASH } from '../../../lib/format-date.ts';
import { buildVersionsQuery, taskQuery, taskTemplateQuery, useCreateTask } from '../api/tasks-queries.ts';
import { buildTaskFormSchema, getInitialTaskValues, getParamNames, toCreateTaskBody } from '../new-task-form.ts';
import type { TaskFormMessages, TaskFormValues, TaskParamName } from '../new-task-form.ts';
import { getCommitSummary, getRerunLabelKey, getRunLabelKey } from '../task-rules.ts';
import { ArgsEditor } from './args-editor.tsx';

interface NewTaskDialogProps {
  projectId: number;
  templateId: number;
  /** The task being re-run: its values fill the form. */
  sourceTaskId?: number;
  onClose: () => void;
  onCreated: (taskId: number) => void;
}

/** The command-line flag each option adds, shown next to its label. */
const PARAM_FLAGS: Record<TaskParamName, string> = {
  debug: '-vvvv',
  dry_run: '--check',
  diff: '--diff',
  plan: '',
  destroy: '-destroy',
  auto_approve: '-auto-approve',
  upgrade: '-upgrade',
  reconfigure: '-reconfigure',
};

/** "1.0.3 — message" for the build version picker. */
function describeBuild(task: TaskWithTemplate): string {
  const version = task.version ?? `#${task.id}`;
  return task.message ? `${version} — ${task.message}` : version;
}

function SecretField({
  label,
  helperText,
  error,
  value,
  onChange,
  onBlur,
  inputRef,
  required,
}: {
  label: string;
  helperText?: string;
  error: boolean;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
  required: boolean;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      label={label}
      required={required}
      type={shown ? 'text' : 'password'}
      autoComplete="new-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      inputRef={inputRef}
      error={error}
      helperText={helperText}
      fullWidth
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                onClick={() => setShown((v) => !v)}
                edge="end"
                aria-label={shown ? t('newTask.hideSecret') : t('newTask.showSecret')}
              >
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

interface NewTaskFormProps {
  projectId: number;
  template: Template;
  source: TaskWithTemplate | null;
  onClose: () => void;
  onCreated: (taskId: number) => void;
}

function NewTaskForm({ projectId, template, source, onClose, onCreated }: NewTaskFormProps) {
  const { t } = useTranslation();
  const create = useCreateTask(projectId);
  const messages = useMemo<TaskFormMessages>(
    () => ({
      required: (title) => t('newTask.fieldRequired', { title }),
      mustBeInteger: t('validation.mustBeInteger'),
      notOneOfValues: (title) => t('newTask.notOneOfValues', { title }),
      buildVersionRequired: t('newTask.buildVersionRequired'),
    }),
    [t],
  );
  const schema = useMemo(() => buildTaskFormSchema(template, messages), [template, messages]);
  const [initial] = useState(() => getInitialTaskValues(template, source));
  const form = useForm<TaskFormValues>({
    resolver: zodResolver(schema),
    defaultValues: initial,
    mode: 'onSubmit',
  });
  const { handleSubmit, setValue, getValues, watch } = form;
  const isDeploy = template.type === 'deploy';
  const builds = useQuery({
    ...buildVersionsQuery(projectId, template.build_template_id ?? 0),
    enabled: isDeploy && template.build_template_id !== null,
  });
  const paramNames = getParamNames(template.app);
  const commitHash = watch('commit_hash');
  const commit = getCommitSummary(commitHash, source?.commit_hash === commitHash ? (source?.commit_message ?? '') : '');

  // The newest build is preselected once the versions arrive.
  useEffect(() => {
    const newest = builds.data?.[0];
    if (newest && getValues('build_task_id') === null) setValue('build_task_id', newest.id);
  }, [builds.data, getValues, setValue]);

  const submit = handleSubmit((values) =>
    create.mutate(toCreateTaskBody(template, values, source), {
      onSuccess: (task) => onCreated(task.id),
    }),
  );

  const title = t('newTask.title', { template: template.name });
  return (
    <FormDialog
      open
      form={form}
      title={title}
      submitLabel={t(source ? getRerunLabelKey(template.type) : getRunLabelKey(template.type))}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      submitting={create.isPending}
      error={create.error ? getErrorMessage(create.error) : null}
      maxWidth="sm"
    >
      {commit ? (
        <Alert
          severity="info"
          icon={<CallSplitIcon fontSize="small" />}
          onClose={() => setValue('commit_hash', null)}
          slotProps={{ closeButton: { title: t('newTask.unpinCommit') } }}
        >
          <Typography variant="body2" component="span" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
            {commit.hash}
          </Typography>{' '}
          {commit.message}
          <Typography variant="caption" component="div" color="text.secondary">
            {t('newTask.pinnedCommit')}
          </Typography>
        </Alert>
      ) : null}

      {isDeploy ? (
        <Controller
          name="build_task_id"
          render={({ field, fieldState }) => (
            <TextField
              select
              label={t('newTask.buildVersion')}
              required
              value={field.value ?? ''}
              onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error !== undefined}
              helperText={fieldState.error?.message ?? (builds.data?.length === 0 ? t('newTask.noBuilds') : undefined)}
              disabled={builds.isPending}
              fullWidth
              slotProps={{
                input: { endAdornment: builds.isPending ? <CircularProgress size={18} sx={{ mr: 3 }} /> : undefined },
              }}
            >
              {(builds.data ?? []).map((build) => (
                <MenuItem key={build.id} value={build.id}>
                  {describeBuild(build)}
                </MenuItem>
              ))}
              {field.value !== null && !builds.data?.some((build) => build.id === field.value) ? (
                <MenuItem value={field.value}>{source?.build_task?.version ?? `#${field.value}`}</MenuItem>
              ) : null}
            </TextField>
          )}
        />
      ) : null}

      <FormTextField name="message" label={t('newTask.message')} slotProps={{ htmlInput: { maxLength: 1024 } }} />

      {template.survey_vars.map((variable, index) => (
        <Controller
          key={`${index}-${variable.name}`}
          name={`survey.${index}.value`}
          render={({ field, fieldState }) => {
            const shared = {
              label: variable.title,
              required: variable.required,
              value: field.value,
              onBlur: field.onBlur,
              inputRef: field.ref,
              error: fieldState.error !== undefined,
              helperText: fieldState.error?.message ?? (variable.description || undefined),
            };
            if (variable.type === 'secret') return <SecretField {...shared} onChange={field.onChange} />;
            const onChange = (event: ChangeEvent<HTMLInputElement>) => field.onChange(event.target.value);
            if (variable.type === 'enum') {
              return (
                <TextField select {...shared} onChange={onChange} fullWidth>
                  {variable.required ? null : (
                    <MenuItem value="">
                      <em>{DASH}</em>
                    </MenuItem>
                  )}
                  {variable.values.map((option) => (
                    <MenuItem key={option.value} value={option.value}>
                      {option.name}
                    </MenuItem>
                  ))}
                </TextField>
              );
            }
            return (
              <TextField
                {...shared}
                onChange={onChange}
                fullWidth
                slotProps={
                  variable.type === 'int' ? { htmlInput: { inputMode: 'numeric', pattern: '[0-9]*' } } : undefined
                }
              />
            );
          }}
        />
      ))}

      {template.allow_override_branch_in_task ? (
        <FormTextField name="git_branch" label={t('newTask.branch')} verbatim />
      ) : null}

      {paramNames.length > 0 ? (
        <FormGroup row sx={{ columnGap: 2 }}>
          {paramNames.map((name) => (
            <Controller
              key={name}
              name={`params.${name}`}
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={field.value === true}
                      onChange={(event) => field.onChange(event.target.checked)}
                      inputRef={field.ref}
                      name={field.name}
                    />
                  }
                  label={
                    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                      {t(`newTask.params.${name}`)}
                      {PARAM_FLAGS[name] ? (
                        <Box component="code" sx={{ ml: 0.75, fontSize: 12, color: 'text.secondary' }}>
                          {PARAM_FLAGS[name]}
                        </Box>
                      ) : null}
                    </Box>
                  }
                />
              )}
            />
          ))}
        </FormGroup>
      ) : null}

      {template.allow_override_args_in_task ? (
        <Controller
          name="args"
          render={({ field }) => (
            <ArgsEditor
              label={t('newTask.cliArgs')}
              value={field.value}
              onChange={field.onChange}
              disabled={create.isPending}
              helperText={template.arguments ? t('newTask.argsAfterTemplate', { args: template.arguments }) : undefined}
            />
          )}
        />
      ) : null}
    </FormDialog>
  );
}

/** The new task dialog of a template (also re-run): loads the template, then shows its form. */
export function NewTaskDialog({ projectId, templateId, sourceTaskId, onClose, onCreated }: NewTaskDialogProps) {
  const { t } = useTranslation();
  const template = useQuery(taskTemplateQuery(projectId, templateId));
  const source = useQuery({ ...taskQuery(projectId, sourceTaskId ?? 0), enabled: sourceTaskId !== undefined });
  const failure = template.error ?? (sourceTaskId !== undefined ? source.error : null);

  if (template.data && (sourceTaskId === undefined || source.data)) {
    return (
      <NewTaskForm
        projectId={projectId}
        template={template.data}
        source={source.data ?? null}
        onClose={onClose}
        onCreated={onCreated}
      />
    );
  }
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-label={t('newTask.loading')}>
      <DialogContent sx={{ display: 'grid', placeItems: 'center', minHeight: 120 }}>
        {failure ? (
          <Alert severity="error">{getErrorMessage(failure)}</Alert>
        ) : (
          <CircularProgress aria-label={t('newTask.loading')} />
        )}
      </DialogContent>
    </Dialog>
  );
}
