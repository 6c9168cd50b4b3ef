import { useState } from 'react';
import { Controller, FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Navigate, Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Permission, appNeedsInventory } from '@gantry/contract';
import type { Template, TemplateInput, TemplateType } from '@gantry/contract';
import { AppIcon } from '../../../components/app-icon.tsx';
import { FormCheckbox, FormTextField } from '../../../components/form-fields.tsx';
import { FormSelectField, namedOptions } from '../../../components/form-select-field.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { getFirstErrorMessage } from '../../../lib/form-errors.ts';
import { translateValidationMessage } from '../../../lib/i18n.ts';
import {
  appsQuery,
  environmentsQuery,
  inventoriesQuery,
  keysQuery,
  repositoriesQuery,
  resourceKeys,
  templateQuery,
  templatesQuery,
  viewsQuery,
} from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { useCreateTemplate, useUpdateTemplate } from '../api/templates-queries.ts';
import { applyCronCheckChange, checkCron, templateSchedulesQuery } from '../api/template-schedules.ts';
import { getCronCheckDefaults, getCronCheckTarget, planCronCheck, validateCronCheck } from './template-cron-check.ts';
import type { CronCheckFields } from './template-cron-check.ts';
import { TemplateCronCheckSection } from './template-cron-check-section.tsx';
import {
  TEMPLATE_TYPES,
  TemplateFormSchema,
  getPlaybookKind,
  getTemplateFormDefaults,
  toTemplateBody,
} from './template-form.ts';
import type { TemplateFormFields } from './template-form.ts';
import { TYPE_LABEL_KEYS, toViewId } from './template-helpers.ts';
import { TemplateRunSettings } from './template-run-settings.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { paths } from '../../../lib/paths.ts';

/** Fields that show their own message; a rule on any other (survey, CLI args, settings carried over) is shown above the form. */
const FIELDS_WITH_MESSAGES = new Set([
  'name',
  'description',
  'playbook',
  'inventory_id',
  'repository_id',
  'environment_id',
  'view_id',
  'start_version',
  'build_template_id',
  'vaults',
  'approval',
  'retries',
  'retry_delay_seconds',
]);

const PLAYBOOK_PLACEHOLDERS = {
  playbook: 'playbooks/site.yml',
  script: 'scripts/deploy.sh',
  subdirectory: 'infra/production',
} as const;

/** /templates/new/edit?app=... and /templates/:templateId/edit: the template form as a page. */
export function TemplateFormPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const params = useParams();
  const [search] = useSearchParams();
  const viewId = toViewId(params.viewId);
  const templateId = params.templateId ? Number(params.templateId) : undefined;
  const template = useQuery({ ...templateQuery(projectId, templateId ?? 0), enabled: templateId !== undefined });
  const backTo = templateId ? paths.template(projectId, templateId, { viewId }) : paths.templates(projectId, viewId);
  const access = useProjectAccess(projectId);

  // Only those who manage project resources create or edit templates.
  if (access.isReady && !access.can(Permission.manageProjectResources)) return <Navigate to={backTo} replace />;
  if (templateId !== undefined && !template.data) {
    return (
      <Page>
        <PageHeader title={t('templates.editTemplate')} backTo={backTo} />
        {template.error ? <Alert severity="error">{getErrorMessage(template.error)}</Alert> : <LinearProgress />}
      </Page>
    );
  }
  return (
    <TemplateForm
      key={templateId ?? 'new'}
      projectId={projectId}
      viewId={viewId}
      template={template.data}
      app={search.get('app') || 'ansible'}
      backTo={backTo}
    />
  );
}

interface TemplateFormProps {
  projectId: number;
  viewId: number | undefined;
  template: Template | undefined;
  app: string;
  backTo: string;
}

function TemplateForm({ projectId, viewId, template, app: appFromUrl, backTo }: TemplateFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const isNew = template === undefined;
  const form = useForm<TemplateFormFields, unknown, TemplateInput>({
    resolver: zodResolver(TemplateFormSchema),
    defaultValues: getTemplateFormDefaults({ app: appFromUrl, viewId, template }),
  });
  const app = form.watch('app');
  const type = form.watch('type');
  const apps = useQuery(appsQuery);
  const inventories = useQuery({ ...inventoriesQuery(projectId, 'ansible'), enabled: appNeedsInventory(app) });
  const repositories = useQuery(repositoriesQuery(projectId));
  const environments = useQuery(environmentsQuery(projectId));
  const views = useQuery(viewsQuery(projectId));
  const templates = useQuery(templatesQuery(projectId));
  const keys = useQuery(keysQuery(projectId));
  const create = useCreateTemplate(projectId);
  const update = useUpdateTemplate(projectId);
  const mutation = isNew ? create : update;
  const queryClient = useQueryClient();
  const schedules = useQuery({
    ...templateSchedulesQuery(projectId, template?.id ?? 0),
    enabled: template !== undefined,
  });
  const cronTarget = getCronCheckTarget(schedules.data ?? []);
  const managedSchedule = cronTarget.kind === 'managed' ? cronTarget.schedule : undefined;
  const [cronCheckEdit, setCronCheck] = useState<CronCheckFields | null>(null);
  const cronCheck = cronCheckEdit ?? getCronCheckDefaults(managedSchedule, template?.repository_id ?? null);
  const [cronCheckErrors, setCronCheckErrors] = useState<{ repository?: string; cron?: string }>({});
  const [cronChecking, setCronChecking] = useState(false);
  const busy = mutation.isPending || cronChecking;

  const appInfo = apps.data?.find((candidate) => candidate.id === app) ?? { id: app, title: app };
  const kind = getPlaybookKind(app);
  const buildTemplates = (templates.data ?? []).filter(
    (candidate) => candidate.type === 'build' && candidate.id !== template?.id,
  );
  const loadError = [apps, inventories, repositories, environments, views, templates, keys, schedules].find(
    (query) => query.error,
  )?.error;
  const unshownError = getFirstErrorMessage(
    Object.entries(form.formState.errors).filter(([field]) => !FIELDS_WITH_MESSAGES.has(field)),
  );

  /** Saves the commit-check schedule after the template; a failure there is reported, the template stays saved. */
  const saveCronCheck = async (saved: { id: number; name: string }) => {
    // Without the template's current schedules the form cannot tell what to change.
    if (cronTarget.kind !== 'managed' || (template && !schedules.isSuccess)) return;
    try {
      await applyCronCheckChange(projectId, planCronCheck(cronCheck, managedSchedule, saved, projectId));
    } catch (error) {
      snackbar.showFailure(error);
    }
    await queryClient.invalidateQueries({ queryKey: resourceKeys.schedules(projectId) });
  };

  // Validation runs the contract's rules on the body; what is sent is the same body, built from the form.
  const submit = form.handleSubmit(async () => {
    const repositoryError = cronTarget.kind === 'managed' ? validateCronCheck(cronCheck) : undefined;
    setCronCheckErrors({ repository: repositoryError });
    if (repositoryError) return;
    if (cronTarget.kind === 'managed' && cronCheck.enabled) {
      setCronChecking(true);
      try {
        await checkCron(projectId, cronCheck.cron_format);
      } catch (error) {
        setCronCheckErrors({ cron: getErrorMessage(error) });
        return;
      } finally {
        setCronChecking(false);
      }
    }
    const body = toTemplateBody(form.getValues());
    if (template) {
      update.mutate(
        { templateId: template.id, body: { ...body, id: template.id } },
        {
          onSuccess: async () => {
            await saveCronCheck({ id: template.id, name: body.name });
            snackbar.showSuccess(t('templates.saved', { name: body.name }));
            void navigate(paths.template(projectId, template.id, { viewId }));
          },
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: async (created) => {
          await saveCronCheck(created);
          snackbar.showSuccess(t('templates.created', { name: created.name }));
          void navigate(paths.template(projectId, created.id, { viewId }));
        },
      });
    }
  });

  return (
    <Page>
      <PageHeader
        title={isNew ? t('templates.newTemplate') : t('templates.editNamed', { name: template.name })}
        backTo={backTo}
      />
      <FormProvider {...form}>
        <Paper variant="outlined" component="form" onSubmit={submit} noValidate sx={{ overflow: 'hidden' }}>
          <Stack direction="row" sx={{ alignItems: 'center', borderBottom: 1, borderColor: 'divider', pr: 2 }}>
            <Controller
              name="type"
              render={({ field }) => (
                <Tabs
                  value={field.value}
                  onChange={(_, next: TemplateType) => field.onChange(next)}
                  aria-label={t('templates.type')}
                  variant="scrollable"
                  sx={{ flexGrow: 1, minWidth: 0 }}
                >
                  {TEMPLATE_TYPES.map((value) => (
                    <Tab key={value || 'task'} value={value} label={t(TYPE_LABEL_KEYS[value])} />
                  ))}
                </Tabs>
              )}
            />
            <Chip
              icon={
                <Box sx={{ display: 'flex', pl: 0.5 }}>
                  <AppIcon app={appInfo} size={16} />
                </Box>
              }
              label={appInfo.title || app}
              variant="outlined"
              size="small"
            />
          </Stack>
          <Box sx={{ p: { xs: 2, sm: 3 } }}>
            {mutation.error ? (
              <Alert severity="error" role="alert" sx={{ mb: 2 }}>
                {getErrorMessage(mutation.error)}
              </Alert>
            ) : null}
            {unshownError ? (
              <Alert severity="error" role="alert" sx={{ mb: 2 }}>
                {translateValidationMessage(t, unshownError)}
              </Alert>
            ) : null}
            {loadError ? (
              <Alert severity="error" sx={{ mb: 2 }}>
                {getErrorMessage(loadError)}
              </Alert>
            ) : null}
            <Box sx={{ display: 'grid', gap: { xs: 3, md: 4 }, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <Stack spacing={2}>
                <FormTextField name="name" label={t('templates.name')} required autoFocus={isNew} />
                <FormTextField
                  name="description"
                  label={t('templates.description')}
                  multiline
                  minRows={2}
                  maxRows={8}
                />
                <FormTextField
                  name="playbook"
                  label={t(`templates.form.${kind}`)}
                  required={kind !== 'subdirectory'}
                  placeholder={PLAYBOOK_PLACEHOLDERS[kind]}
                  helperText={t(`templates.form.${kind}Hint`)}
                  verbatim
                />
                {appNeedsInventory(app) ? (
                  <FormSelectField
                    name="inventory_id"
                    label={t('templates.inventory')}
                    required
                    options={namedOptions(inventories.data)}
                  />
                ) : null}
                <FormSelectField
                  name="repository_id"
                  label={t('templates.repository')}
                  required
                  options={namedOptions(repositories.data)}
                />
                <FormSelectField
                  name="environment_id"
                  label={t('templates.environment')}
                  required
                  options={namedOptions(environments.data)}
                />
                <FormSelectField
                  name="view_id"
                  label={t('templates.view')}
                  options={[
                    { value: null, label: <em>{t('templates.form.noView')}</em> },
                    ...(views.data ?? []).map((view) => ({ value: view.id, label: view.title })),
                  ]}
                />
                {type === 'build' ? (
                  <FormTextField
                    name="start_version"
                    label={t('templates.form.startVersion')}
                    required
                    placeholder="0.0.0"
                    helperText={t('templates.form.startVersionHint')}
                    verbatim
                  />
                ) : null}
                {type === 'deploy' ? (
                  <>
                    <FormSelectField
                      name="build_template_id"
                      label={t('templates.form.buildTemplate')}
                      required
                      helperText={buildTemplates.length ? undefined : t('templates.form.noBuildTemplates')}
                      options={namedOptions(buildTemplates)}
                    />
                    <FormCheckbox name="autorun" label={t('templates.form.autorun')} />
                  </>
                ) : null}
                {template && !schedules.isSuccess ? null : (
                  <TemplateCronCheckSection
                    target={cronTarget}
                    fields={cronCheck}
                    onChange={setCronCheck}
                    repositories={repositories.data ?? []}
                    repositoryError={cronCheckErrors.repository}
                    cronError={cronCheckErrors.cron}
                  />
                )}
              </Stack>
              <TemplateRunSettings projectId={projectId} app={app} keys={keys.data ?? []} />
            </Box>
          </Box>
          <Divider />
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', px: { xs: 2, sm: 3 }, py: 2 }}>
            <Button component={RouterLink} to={backTo} color="inherit" disabled={busy}>
              {t('common.cancel')}
            </Button>
            <SubmitButton pending={busy}>{isNew ? t('common.create') : t('common.save')}</SubmitButton>
          </Stack>
        </Paper>
      </FormProvider>
    </Page>
  );
}
