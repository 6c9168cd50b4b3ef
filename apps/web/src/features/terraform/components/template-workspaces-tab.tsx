import { useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CheckIcon from '@mui/icons-material/Check';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Permission } from '@gantry/contract';
import type { Inventory, Template } from '@gantry/contract';
import { ChoiceToggle } from '../../../components/choice-toggle.tsx';
import { ConfirmDialog, confirmItem } from '../../../components/confirm-dialog.tsx';
import { useSnackbar } from '../../../components/snackbar-provider.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { useMenuAnchor } from '../../../components/use-menu-anchor.ts';
import { getErrorMessage } from '../../../lib/api-client.ts';
import { templateQuery } from '../../../lib/project-resources.ts';
import { useProjectAccess } from '../../../lib/shared-queries.ts';
import { useProjectId } from '../../../lib/use-project-id.ts';
import { templateWorkspacesQuery, useDeleteWorkspace, useWorkspaceAction } from '../api/terraform-queries.ts';
import type { WorkspaceAction } from '../api/terraform-queries.ts';
import { WorkspaceAliases } from './workspace-aliases.tsx';
import { WorkspaceLock } from './workspace-lock.tsx';
import { AttachWorkspaceDialog, NewWorkspaceDialog } from './workspace-dialogs.tsx';
import { WorkspaceStates } from './workspace-states.tsx';

/** A button that explains itself when it is off (the default workspace stays attached and in place). */
function GuardedButton({
  reason,
  disabled,
  children,
  onClick,
}: {
  reason: string;
  disabled: boolean;
  children: string;
  onClick: () => void;
}) {
  return (
    <Tooltip title={disabled ? reason : ''}>
      <span>
        <Button size="small" disabled={disabled} onClick={onClick}>
          {children}
        </Button>
      </span>
    </Tooltip>
  );
}

/**
 * What the selected workspace offers besides delete, none of it for the default workspace: each action's
 * button, why the button is off, and what is said once it is done.
 */
const SELECTED_ACTIONS = {
  setDefault: { label: 'terraform.makeDefault', reason: 'terraform.alreadyDefault', done: 'terraform.madeDefault' },
  detach: { label: 'terraform.detach', reason: 'terraform.defaultCannotDetach', done: 'terraform.detached' },
} as const satisfies Partial<Record<WorkspaceAction, { label: string; reason: string; done: string }>>;
type SelectedAction = keyof typeof SELECTED_ACTIONS;
const SELECTED_ACTION_KINDS = Object.keys(SELECTED_ACTIONS) as SelectedAction[];

function WorkspacesPanel({ template }: { template: Template }) {
  const { t } = useTranslation();
  const snackbar = useSnackbar();
  const projectId = template.project_id;
  const access = useProjectAccess(projectId);
  const canManage = access.can(Permission.manageProjectResources);
  const workspaces = useQuery(templateWorkspacesQuery(projectId, template.id, template.app));
  const action = useWorkspaceAction(projectId, template.id);
  const remove = useDeleteWorkspace(projectId);
  const [chosen, setChosen] = useState<number | null>(null);
  const workspaceMenu = useMenuAnchor();
  const newDialog = useDialogState();
  const attachDialog = useDialogState();
  const confirmDelete = useDialogState<Inventory>();

  const list = workspaces.data ?? [];
  const selected = list.find((w) => w.id === chosen) ?? list.find((w) => w.id === template.inventory_id) ?? list[0];
  const isDefault = selected !== undefined && selected.id === template.inventory_id;

  const run = (kind: SelectedAction, workspace: Inventory) =>
    action.mutate(
      { action: kind, inventoryId: workspace.id },
      {
        onSuccess: () => {
          if (kind === 'detach') setChosen(null);
          snackbar.showSuccess(t(SELECTED_ACTIONS[kind].done, { name: workspace.name }));
        },
        onError: snackbar.showFailure,
      },
    );

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('terraform.workspaces')}
          </Typography>
          {canManage ? (
            <>
              <Button
                size="small"
                variant="outlined"
                startIcon={<AddIcon />}
                endIcon={<ArrowDropDownIcon />}
                onClick={workspaceMenu.openAt}
                aria-haspopup="menu"
              >
                {t('terraform.workspace')}
              </Button>
              <Menu {...workspaceMenu.menuProps}>
                <MenuItem onClick={workspaceMenu.closeThen(() => newDialog.show())}>
                  {t('terraform.newWorkspace')}
                </MenuItem>
                <MenuItem onClick={workspaceMenu.closeThen(() => attachDialog.show())}>
                  {t('terraform.attachWorkspace')}
                </MenuItem>
              </Menu>
            </>
          ) : null}
        </Stack>
        {workspaces.isPending ? <LinearProgress sx={{ mt: 2 }} /> : null}
        {workspaces.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {getErrorMessage(workspaces.error)}
          </Alert>
        ) : null}
        {workspaces.isSuccess && list.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('terraform.noWorkspaces')}
          </Typography>
        ) : null}
        {list.length > 0 ? (
          <ChoiceToggle
            label={t('terraform.workspaces')}
            value={selected?.id ?? null}
            choices={list.map((workspace) => ({
              value: workspace.id,
              label: (
                <>
                  {workspace.id === template.inventory_id ? (
                    <CheckIcon fontSize="small" titleAccess={t('terraform.default')} />
                  ) : null}
                  {workspace.name}
                </>
              ),
            }))}
            onChange={setChosen}
            sx={{ mt: 2, flexWrap: 'wrap' }}
            buttonSx={{ textTransform: 'none', gap: 0.5 }}
          />
        ) : null}
        {selected ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              {t('terraform.selects', { workspace: selected.inventory })}
            </Typography>
            <Box sx={{ flexGrow: 1 }} />
            {canManage ? (
              <>
                {SELECTED_ACTION_KINDS.map((kind) => (
                  <GuardedButton
                    key={kind}
                    reason={t(SELECTED_ACTIONS[kind].reason)}
                    disabled={isDefault || action.isPending}
                    onClick={() => run(kind, selected)}
                  >
                    {t(SELECTED_ACTIONS[kind].label)}
                  </GuardedButton>
                ))}
                <GuardedButton
                  reason={t('terraform.defaultCannotDelete')}
                  disabled={isDefault || remove.isPending}
                  onClick={() => confirmDelete.show(selected)}
                >
                  {t('common.delete')}
                </GuardedButton>
              </>
            ) : null}
          </Stack>
        ) : null}
      </Paper>

      {selected ? (
        <>
          <WorkspaceLock
            key={`lock-${selected.id}`}
            projectId={projectId}
            inventoryId={selected.id}
            canManage={canManage}
          />
          <Box>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
              {t('terraform.states')}
            </Typography>
            <WorkspaceStates key={selected.id} projectId={projectId} inventoryId={selected.id} canManage={canManage} />
          </Box>
          <WorkspaceAliases
            key={`aliases-${selected.id}`}
            projectId={projectId}
            inventoryId={selected.id}
            canManage={canManage}
          />
        </>
      ) : null}

      <NewWorkspaceDialog open={newDialog.open} onClose={newDialog.close} template={template} onAdded={setChosen} />
      <AttachWorkspaceDialog
        open={attachDialog.open}
        onClose={attachDialog.close}
        template={template}
        onAdded={setChosen}
      />
      <ConfirmDialog
        {...confirmItem(confirmDelete, (workspace) =>
          remove.mutate(workspace.id, {
            onSuccess: () => {
              setChosen(null);
              snackbar.showSuccess(t('terraform.deleted', { name: workspace.name }));
            },
            onError: snackbar.showFailure,
          }),
        )}
        title={t('terraform.deleteWorkspaceTitle')}
        message={t('terraform.deleteWorkspaceConfirm', { name: confirmDelete.item?.name ?? '' })}
      />
    </Stack>
  );
}

/** The template page's Workspaces tab (terraform and tofu): workspaces, their state history and backend aliases. */
export function TemplateWorkspacesTab() {
  const projectId = useProjectId();
  const templateId = Number(useParams().templateId);
  const template = useQuery(templateQuery(projectId, templateId));
  return template.data ? <WorkspacesPanel template={template.data} /> : null;
}
