import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { Integration, IntegrationExtractValue, IntegrationMatcher } from '@gantry/contract';
import type { Column } from '../../../components/data-table.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { deleteTextsOf, useItemDelete } from '../../../components/use-item-delete.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { DASH } from '../../../lib/format-date.ts';
import { keysQuery, templatesQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import {
  extractValuesQuery,
  integrationQuery,
  loadIntegrationRefs,
  matchersQuery,
  useDeleteExtractValue,
  useDeleteIntegration,
  useDeleteMatcher,
  useSetSearchable,
} from '../api/integrations-queries.ts';
import { AliasList } from './alias-list.tsx';
import { INTEGRATION_ACTIONS } from './integration-access.ts';
import { IntegrationDialog } from './integration-dialog.tsx';
import { ExtractValueDialog } from './extract-value-dialog.tsx';
import { MatcherDialog } from './matcher-dialog.tsx';
import { PartsSection } from './parts-section.tsx';
import { paths } from '../../../lib/paths.ts';

const Code = ({ children, title }: { children: ReactNode; title?: string }) => (
  <Box component="code" title={title} sx={{ fontSize: 13, whiteSpace: 'nowrap' }}>
    {children}
  </Box>
);

/** /integrations/:integrationId: aliases, the global alias switch, extracted values and matchers. */
export function IntegrationDetailPage() {
  const { t } = useTranslation();
  const projectId = useProjectId();
  const integrationId = Number(useParams().integrationId);
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const access = useProjectAccess(projectId);
  const canManage = access.can(INTEGRATION_ACTIONS);
  const integration = useQuery(integrationQuery(projectId, integrationId));
  const templates = useQuery(templatesQuery(projectId));
  const keys = useQuery(keysQuery(projectId));
  const values = useQuery(extractValuesQuery(projectId, integrationId));
  const matchers = useQuery(matchersQuery(projectId, integrationId));
  const setSearchable = useSetSearchable(projectId);
  const removeValue = useDeleteExtractValue(projectId, integrationId);
  const removeMatcher = useDeleteMatcher(projectId, integrationId);
  const editDialog = useDialogState();
  const deletion = useItemDelete<Integration>({
    projectId,
    texts: deleteTextsOf('integrations'),
    remove: useDeleteIntegration(projectId),
    loadRefs: (id) => loadIntegrationRefs(projectId, id),
  });
  const listPath = paths.projectPage(projectId, 'integrations');

  const sourceLabel = (source: 'body' | 'header', bodyDataType: string) =>
    source === 'header'
      ? t('integrations.sources.header')
      : `${t('integrations.sources.body')} (${t(`integrations.bodyDataTypes.${bodyDataType || 'json'}`)})`;

  /** Extracted values and matchers both read one part of a request: their name, source and key columns. */
  const requestPartColumns = <T extends IntegrationExtractValue | IntegrationMatcher>(
    sourceHeader: string,
    sourceOf: (row: T) => 'body' | 'header',
  ): Column<T>[] => [
    { id: 'name', header: t('integrations.name'), render: (row) => row.name },
    {
      id: 'source',
      header: sourceHeader,
      hideBelow: 'md',
      render: (row) => sourceLabel(sourceOf(row), row.body_data_type),
    },
    {
      id: 'key',
      header: t('integrations.key'),
      hideBelow: 'sm',
      render: (row) => (row.key ? <Code>{row.key}</Code> : DASH),
    },
  ];
  const valueColumns: Column<IntegrationExtractValue>[] = [
    ...requestPartColumns<IntegrationExtractValue>(t('integrations.valueSource'), (value) => value.value_source),
    {
      id: 'variable',
      header: t('integrations.variable'),
      render: (value) => (
        <>
          <Code>{value.variable}</Code>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t(`integrations.variableTypes.${value.variable_type}`)}
          </Typography>
        </>
      ),
    },
  ];
  const matcherColumns: Column<IntegrationMatcher>[] = [
    ...requestPartColumns<IntegrationMatcher>(t('integrations.matchSource'), (matcher) => matcher.match_type),
    {
      id: 'method',
      header: t('integrations.method'),
      hideBelow: 'sm',
      render: (matcher) => t(`integrations.methods.${matcher.method}`),
    },
    {
      id: 'value',
      header: t('integrations.value'),
      fill: true,
      render: (matcher) => <Code title={matcher.value}>{matcher.value}</Code>,
    },
  ];
  const breadcrumbs = (name: string) => (
    <Breadcrumbs aria-label={t('integrations.breadcrumb')} sx={{ mb: 1 }}>
      <Link component={RouterLink} to={listPath} underline="hover" color="inherit">
        {t('integrations.title')}
      </Link>
      <Typography color="text.primary">{name}</Typography>
    </Breadcrumbs>
  );

  if (!integration.data) {
    return (
      <Page>
        {breadcrumbs(DASH)}
        {integration.error ? <Alert severity="error">{getErrorMessage(integration.error)}</Alert> : <LinearProgress />}
      </Page>
    );
  }
  const current = integration.data;
  const template = templates.data?.find((candidate) => candidate.id === current.template_id);
  const partsProps = { projectId, integrationId: current.id, canManage };
  const secretName = keys.data?.find((key) => key.id === current.auth_secret_id)?.name;

  return (
    <Page>
      {breadcrumbs(current.name)}
      <PageHeader
        title={current.name}
        actions={
          canManage ? (
            <>
              <Button variant="outlined" startIcon={<EditOutlinedIcon />} onClick={() => editDialog.show()}>
                {t('common.edit')}
              </Button>
              <Button
                variant="outlined"
                color="error"
                startIcon={<DeleteOutlineIcon />}
                onClick={() => deletion.request(current, () => void navigate(listPath))}
                disabled={deletion.isDeleting(current)}
              >
                {t('common.delete')}
              </Button>
            </>
          ) : null
        }
      />
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
              columnGap: 3,
              rowGap: 1,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0 },
            }}
          >
            <dt>{current.workflow_id ? t('integrations.workflow') : t('integrations.template')}</dt>
            <dd>
              {current.workflow_id ? (
                <Link component={RouterLink} to={paths.workflow(projectId, current.workflow_id)} underline="hover">
                  #{current.workflow_id}
                </Link>
              ) : (
                <Link component={RouterLink} to={paths.template(projectId, current.template_id ?? 0)} underline="hover">
                  {template?.name ?? `#${current.template_id}`}
                </Link>
              )}
            </dd>
            <dt>{t('integrations.authMethod')}</dt>
            <dd>
              {t(`integrations.authMethods.${current.auth_method || 'none'}`)}
              {current.auth_header ? (
                <>
                  {' · '}
                  <Code>{current.auth_header}</Code>
                </>
              ) : null}
              {secretName ? ` · ${secretName}` : ''}
            </dd>
          </Box>
          <FormControlLabel
            sx={{ mt: 1.5, alignItems: 'flex-start' }}
            control={
              <Switch
                checked={current.searchable}
                disabled={!canManage || setSearchable.isPending}
                onChange={(event) =>
                  setSearchable.mutate(
                    { integration: current, searchable: event.target.checked },
                    { onError: snackbar.showFailure },
                  )
                }
              />
            }
            label={
              <Box sx={{ pt: 0.75 }}>
                <Typography variant="body2">{t('integrations.globalAlias')}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {t('integrations.globalAliasHint')}
                </Typography>
              </Box>
            }
          />
        </Paper>
        <AliasList
          projectId={projectId}
          integrationId={current.id}
          canManage={canManage}
          title={t('integrations.aliases')}
          description={t('integrations.aliasesHint')}
        />
        <PartsSection
          part="value"
          query={values}
          columns={valueColumns}
          remove={removeValue}
          Dialog={ExtractValueDialog}
          {...partsProps}
        />
        <PartsSection
          part="matcher"
          query={matchers}
          columns={matcherColumns}
          remove={removeMatcher}
          Dialog={MatcherDialog}
          {...partsProps}
        />
      </Stack>
      <IntegrationDialog
        open={editDialog.open}
        projectId={projectId}
        integration={current}
        onClose={editDialog.close}
      />
      {deletion.element}
    </Page>
  );
}
