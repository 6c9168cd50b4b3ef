import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import ViewColumnOutlinedIcon from '@mui/icons-material/ViewColumnOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Permission, isTaskFinished } from '@gantry/contract';
import type { Template } from '@gantry/contract';
import { AppIcon } from '../../../components/app-icon.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { Page } from '../../../components/page.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { DASH } from '../../../lib/format-date.ts';
import {
  appsQuery,
  environmentsQuery,
  inventoriesQuery,
  repositoriesQuery,
  templatesQuery,
} from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { storage } from '../../../lib/storage.ts';
import { ColumnSettingsDialog } from './column-settings-dialog.tsx';
import { NewTemplateButton } from './new-template-button.tsx';
import { RUN_LABEL_KEYS, TASK_LOG_PARAM, TYPE_LABEL_KEYS, getLastTask, useHrefWithParam } from './template-helpers.ts';
import { TemplateRowMenu } from './template-row-menu.tsx';
import { TaskStatusChip } from '../../../components/task-status-chip.tsx';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { useTemplateActions } from './use-template-actions.ts';
import { paths } from '../../../lib/paths.ts';

/** Column visibility of this table is kept in the browser under this name. */
const TEMPLATE_TABLE = 'project__template';

/**
 * Where the table grows too narrow, these columns give way first, so that the name keeps its room
 * (beside the side menu of a 1280 px screen, the variable group and repository); the column settings
 * hide any of them.
 */
const LESS_IMPORTANT_COLUMNS: Partial<Record<string, 'sm' | 'md' | 'lg' | 'xl'>> = {
  environment: 'xl',
  repository: 'xl',
  inventory: 'lg',
  playbook: 'md',
  type: 'sm',
};

const COLUMN_IDS = ['playbook', 'type', 'inventory', 'environment', 'repository', 'lastTask', 'actions'] as const;
type ColumnId = (typeof COLUMN_IDS)[number];

interface TemplatesPageProps {
  projectId: number;
  /** The open view; undefined for all templates. */
  viewId: number | undefined;
  /** The view tabs, rendered under the title. */
  viewTabs: ReactNode;
  /** What an expanded row shows: the template's newest tasks. */
  renderLastTasks: (templateId: number) => ReactNode;
}

export function TemplatesPage({ projectId, viewId, viewTabs, renderLastTasks }: TemplatesPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const access = useProjectAccess(projectId);
  const templates = useQuery({
    ...templatesQuery(projectId, viewId),
    // Last-task statuses change while tasks run; refresh until they settle.
    refetchInterval: (query) =>
      query.state.data?.some((template) => !isTaskFinished(getLastTask(template)?.status ?? 'success')) ? 5000 : false,
  });
  const inventories = useQuery(inventoriesQuery(projectId));
  const environments = useQuery(environmentsQuery(projectId));
  const repositories = useQuery(repositoriesQuery(projectId));
  const apps = useQuery(appsQuery);
  const actions = useTemplateActions(projectId, viewId);
  const hrefWithParam = useHrefWithParam();
  const settingsDialog = useDialogState();
  const [hidden, setHidden] = useState<string[]>(() => storage.getHiddenColumns(TEMPLATE_TABLE));
  const canManage = access.can(Permission.manageProjectResources);

  const names = (list: ReadonlyArray<{ id: number; name: string }> | undefined) =>
    new Map((list ?? []).map((item) => [item.id, item.name]));
  const inventoryNames = names(inventories.data);
  const environmentNames = names(environments.data);
  const repositoryNames = names(repositories.data);
  const nameOf = (map: Map<number, string>, id: number | null) => (id === null ? DASH : (map.get(id) ?? DASH));

  const changeHidden = (next: string[]) => {
    setHidden(next);
    storage.setHiddenColumns(TEMPLATE_TABLE, next);
  };

  const labels: Record<ColumnId, string> = {
    playbook: t('templates.playbook'),
    type: t('templates.type'),
    inventory: t('templates.inventory'),
    environment: t('templates.environment'),
    repository: t('templates.repository'),
    lastTask: t('templates.lastTask'),
    actions: t('templates.actions'),
  };
  const visible = COLUMN_IDS.filter((id) => !hidden.includes(id));

  // Beside the side menu, a labelled button would push the row past the edge of a 1280 px screen.
  const wideRunButtons = useMediaQuery('(min-width: 1440px)', { noSsr: true });

  const renderCell = (column: ColumnId, template: Template): ReactNode => {
    switch (column) {
      case 'playbook':
        return template.playbook ? (
          <Box component="code" sx={{ fontSize: 13 }}>
            {template.playbook}
          </Box>
        ) : (
          DASH
        );
      case 'type':
        return t(TYPE_LABEL_KEYS[template.type]);
      case 'inventory':
        return nameOf(inventoryNames, template.inventory_id);
      case 'environment':
        return nameOf(environmentNames, template.environment_id);
      case 'repository':
        return nameOf(repositoryNames, template.repository_id);
      case 'lastTask': {
        const last = getLastTask(template);
        if (!last) return DASH;
        return (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <TaskStatusChip status={last.status} />
            <Link component={RouterLink} to={hrefWithParam(TASK_LOG_PARAM, last.id)} underline="hover" variant="body2">
              #{last.id}
            </Link>
          </Stack>
        );
      }
      case 'actions':
        return (
          <Stack
            direction="row"
            spacing={0.5}
            sx={{ justifyContent: 'flex-end', alignItems: 'center', whiteSpace: 'nowrap' }}
          >
            {wideRunButtons ? (
              <Button
                size="small"
                variant="outlined"
                startIcon={<PlayArrowIcon />}
                onClick={() => actions.run(template)}
                aria-label={`${t(RUN_LABEL_KEYS[template.type])} ${template.name}`}
              >
                {t(RUN_LABEL_KEYS[template.type])}
              </Button>
            ) : (
              <Tooltip title={t(RUN_LABEL_KEYS[template.type])}>
                <IconButton
                  size="small"
                  color="primary"
                  onClick={() => actions.run(template)}
                  aria-label={`${t(RUN_LABEL_KEYS[template.type])} ${template.name}`}
                >
                  <PlayArrowIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            {canManage ? (
              <TemplateRowMenu
                name={template.name}
                editPath={paths.template(projectId, template.id, { viewId, page: 'edit' })}
                onCopy={() => void actions.copy(template)}
                onDelete={() => actions.requestDelete(template)}
                busy={actions.copying || actions.deleting}
              />
            ) : null}
          </Stack>
        );
    }
  };

  const columns: Column<Template>[] = [
    {
      id: 'name',
      header: t('templates.name'),
      fill: true,
      render: (template) => {
        const app = apps.data?.find((candidate) => candidate.id === template.app) ?? { id: template.app };
        return (
          <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', minWidth: 0 }}>
            <AppIcon app={app} size={18} />
            <Link
              component={RouterLink}
              to={paths.template(projectId, template.id, { viewId })}
              underline="hover"
              noWrap
              title={template.name}
              sx={{ fontWeight: 500, minWidth: 0 }}
            >
              {template.name}
            </Link>
          </Stack>
        );
      },
    },
    ...visible.map((id) => ({
      id,
      header: id === 'actions' ? '' : labels[id],
      align: id === 'actions' ? ('right' as const) : undefined,
      hideBelow: LESS_IMPORTANT_COLUMNS[id],
      render: (template: Template) => renderCell(id, template),
    })),
  ];

  return (
    <Page>
      <PageHeader
        title={t('templates.title')}
        actions={
          <>
            <TooltipIconButton title={t('templates.columns.title')} onClick={() => settingsDialog.show()} size="medium">
              <ViewColumnOutlinedIcon />
            </TooltipIconButton>
            {canManage ? <NewTemplateButton projectId={projectId} viewId={viewId} isAdmin={access.isAdmin} /> : null}
          </>
        }
      >
        {viewTabs}
      </PageHeader>
      <DataTable
        aria-label={t('templates.title')}
        columns={columns}
        query={templates}
        emptyText={viewId ? t('templates.emptyView') : t('templates.empty')}
        emptyHint={canManage && !viewId ? t('templates.emptyHint') : undefined}
        paginated={false}
        expansion={{
          render: (template) => renderLastTasks(template.id),
          toggleLabel: (template, open) =>
            t(open ? 'templates.hideTasks' : 'templates.showTasks', { name: template.name }),
        }}
      />
      <ColumnSettingsDialog
        open={settingsDialog.open}
        columns={COLUMN_IDS.map((id) => ({ id, label: labels[id] }))}
        hidden={hidden}
        onChange={changeHidden}
        onClose={settingsDialog.close}
      />
      {actions.element}
      {/* Navigating from an emptied view back to all templates. */}
      {templates.error && viewId ? (
        <Box sx={{ mt: 2 }}>
          <Button onClick={() => navigate(paths.templates(projectId))}>{t('templates.backToAll')}</Button>
        </Box>
      ) : null}
    </Page>
  );
}
