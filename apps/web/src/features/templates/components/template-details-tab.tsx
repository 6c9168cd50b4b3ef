import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DASH } from '../../../lib/format-date.ts';
import {
  appsQuery,
  environmentsQuery,
  inventoriesQuery,
  repositoriesQuery,
  templatesQuery,
  viewsQuery,
} from '../../../lib/project-resources.ts';
import { getPlaybookKind, parseArguments } from './template-form.ts';
import { TYPE_LABEL_KEYS } from './template-helpers.ts';
import { useRouteTemplate, useTemplateRoute } from './template-layout.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography
        variant="caption"
        color="text.secondary"
        component="dt"
        sx={{ textTransform: 'uppercase', letterSpacing: 0.4, fontWeight: 600 }}
      >
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, mt: 0.25, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

export function TemplateDetailsTab() {
  const { t } = useTranslation();
  const { projectId } = useTemplateRoute();
  const template = useRouteTemplate();
  const inventories = useQuery(inventoriesQuery(projectId));
  const environments = useQuery(environmentsQuery(projectId));
  const repositories = useQuery(repositoriesQuery(projectId));
  const views = useQuery(viewsQuery(projectId));
  const templates = useQuery(templatesQuery(projectId));
  const apps = useQuery(appsQuery);
  if (!template) return null;

  const nameOf = (
    list: ReadonlyArray<{ id: number; name?: string; title?: string }> | undefined,
    id: number | null,
  ) => {
    if (id === null) return DASH;
    const item = list?.find((candidate) => candidate.id === id);
    return item?.name ?? item?.title ?? `#${id}`;
  };
  const kind = getPlaybookKind(template.app);
  const args = parseArguments(template.arguments);
  const flags = [
    template.allow_override_args_in_task ? t('templates.form.allowOverrideArgs') : null,
    template.allow_parallel_tasks ? t('templates.form.allowParallel') : null,
    template.suppress_success_alerts ? t('templates.form.suppressSuccessAlerts') : null,
  ].filter((flag): flag is string => flag !== null);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Box
        component="dl"
        sx={{ m: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' } }}
      >
        <Field label={t(`templates.form.${kind}`)}>
          {template.playbook ? (
            <Box component="code" sx={{ fontSize: 13 }}>
              {template.playbook}
            </Box>
          ) : (
            DASH
          )}
        </Field>
        <Field label={t('templates.type')}>{t(TYPE_LABEL_KEYS[template.type])}</Field>
        <Field label={t('templates.app')}>
          {apps.data?.find((app) => app.id === template.app)?.title ?? template.app}
        </Field>
        {template.app === 'ansible' ? (
          <Field label={t('templates.inventory')}>{nameOf(inventories.data, template.inventory_id)}</Field>
        ) : null}
        <Field label={t('templates.environment')}>{nameOf(environments.data, template.environment_id)}</Field>
        <Field label={t('templates.repository')}>{nameOf(repositories.data, template.repository_id)}</Field>
        <Field label={t('templates.view')}>{nameOf(views.data, template.view_id)}</Field>
        {template.type === 'build' ? (
          <Field label={t('templates.form.startVersion')}>{template.start_version ?? DASH}</Field>
        ) : null}
        {template.type === 'deploy' ? (
          <Field label={t('templates.form.buildTemplate')}>
            {nameOf(templates.data, template.build_template_id)}
            {template.autorun ? ` · ${t('templates.form.autorun')}` : ''}
          </Field>
        ) : null}
        <Field label={t('templates.form.cliArgs')}>
          {args.length ? (
            <Box component="code" sx={{ fontSize: 13 }}>
              {args.join(' ')}
            </Box>
          ) : (
            DASH
          )}
        </Field>
        <Field label={t('templates.form.surveyVars')}>
          {template.survey_vars.length ? template.survey_vars.map((v) => v.title).join(', ') : DASH}
        </Field>
        {template.app === 'ansible' ? (
          <Field label={t('templates.form.vaults')}>
            {template.vaults.length
              ? template.vaults.map((v) => v.name || t('templates.vaults.default')).join(', ')
              : DASH}
          </Field>
        ) : null}
      </Box>
      {flags.length ? (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2.5, flexWrap: 'wrap' }}>
          {flags.map((flag) => (
            <Chip key={flag} label={flag} size="small" variant="outlined" />
          ))}
        </Stack>
      ) : null}
      <Box sx={{ mt: 2.5 }}>
        <Field label={t('templates.description')}>
          <Box component="span" sx={{ whiteSpace: 'pre-wrap' }}>
            {template.description || DASH}
          </Box>
        </Field>
      </Box>
    </Paper>
  );
}
