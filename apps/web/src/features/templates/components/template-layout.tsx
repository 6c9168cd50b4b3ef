import { Link as RouterLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import { Permission, isTerraformApp } from '@gantry/contract';
import type { Template } from '@gantry/contract';
import { AppIcon } from '../../../components/app-icon.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { getErrorMessage, isApiError } from '../../../lib/api-client.ts';
import { appsQuery, templateQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { RUN_LABEL_KEYS, toViewId } from './template-helpers.ts';
import { useTemplateActions } from './use-template-actions.ts';
import { paths } from '../../../lib/paths.ts';

/** The tabs of a template page; each is a child route. */
const TABS = ['tasks', 'details'] as const;
/** Terraform and tofu templates add their Workspaces tab (path /state). */
const TERRAFORM_TABS = [...TABS, 'state'] as const;

/** The numeric ids of a /templates/:templateId route. */
export function useTemplateRoute(): { projectId: number; viewId: number | undefined; templateId: number } {
  const projectId = useProjectId();
  const params = useParams();
  return { projectId, viewId: toViewId(params.viewId), templateId: Number(params.templateId) };
}

/** The template the current page is about; the layout only renders its tabs once it has loaded. */
export function useRouteTemplate(): Template | undefined {
  const { projectId, templateId } = useTemplateRoute();
  return useQuery(templateQuery(projectId, templateId)).data;
}

export function TemplateLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { projectId, viewId, templateId } = useTemplateRoute();
  const access = useProjectAccess(projectId);
  const template = useQuery({
    ...templateQuery(projectId, templateId),
    enabled: Number.isInteger(templateId) && templateId > 0,
  });
  const apps = useQuery(appsQuery);
  const actions = useTemplateActions(projectId, viewId);
  const canManage = access.can(Permission.manageProjectResources);
  const base = paths.template(projectId, templateId, { viewId });
  const current = location.pathname.slice(base.length + 1).split('/')[0] ?? '';
  const listPath = paths.templates(projectId, viewId);

  const data = template.data;
  const tabs = data && isTerraformApp(data.app) ? TERRAFORM_TABS : TABS;
  const app = data ? (apps.data?.find((candidate) => candidate.id === data.app) ?? { id: data.app }) : undefined;

  return (
    <Page>
      <PageHeader
        title={data?.name ?? t('templates.template')}
        backTo={listPath}
        actions={
          data ? (
            <>
              {app ? (
                <Box sx={{ display: 'flex', alignItems: 'center', mr: 1 }} title={'title' in app ? app.title : app.id}>
                  <AppIcon app={app} size={22} />
                </Box>
              ) : null}
              {canManage ? (
                <>
                  <Tooltip title={t('common.edit')}>
                    <IconButton component={RouterLink} to={`${base}/edit`} aria-label={t('templates.editTemplate')}>
                      <EditOutlinedIcon />
                    </IconButton>
                  </Tooltip>
                  <TooltipIconButton
                    title={t('templates.copy')}
                    onClick={() => void actions.copy(data)}
                    disabled={actions.copying}
                    size="medium"
                  >
                    <ContentCopyIcon />
                  </TooltipIconButton>
                  <TooltipIconButton
                    title={t('common.delete')}
                    label={t('templates.deleteTemplate')}
                    onClick={() => actions.requestDelete(data, () => void navigate(listPath))}
                    disabled={actions.deleting}
                    size="medium"
                  >
                    <DeleteOutlineIcon />
                  </TooltipIconButton>
                </>
              ) : null}
              <Button
                variant="contained"
                disableElevation
                startIcon={<PlayArrowIcon />}
                onClick={() => actions.run(data)}
              >
                {t(RUN_LABEL_KEYS[data.type])}
              </Button>
            </>
          ) : null
        }
      >
        <Tabs
          value={(tabs as readonly string[]).includes(current) ? current : false}
          sx={{ mt: 1, borderBottom: 1, borderColor: 'divider' }}
        >
          {tabs.map((tab) => (
            <Tab
              key={tab}
              value={tab}
              label={tab === 'state' ? t('terraform.tab') : t(`templates.tabs.${tab}`)}
              component={RouterLink}
              to={`${base}/${tab}`}
            />
          ))}
        </Tabs>
      </PageHeader>
      {template.isPending ? <LinearProgress /> : null}
      {template.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" component={RouterLink} to={listPath}>
              {t('templates.backToList')}
            </Button>
          }
        >
          {isApiError(template.error, 404) ? t('templates.notFound') : getErrorMessage(template.error)}
        </Alert>
      ) : null}
      {data ? <Outlet /> : null}
      {actions.element}
    </Page>
  );
}
