import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import LinkIcon from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Inventory } from '@gantry/contract';
import { AddMenuButton } from '../../../components/add-menu-button.tsx';
import { AppIcon } from '../../../components/app-icon.tsx';
import type { Column } from '../../../components/data-table.tsx';
import { IconMenuItem } from '../../../components/icon-menu-item.tsx';
import { ResourceListPage } from '../../../components/resource-list-page.tsx';
import type { RowActions } from '../../../components/resource-list-page.tsx';
import { useDialogState } from '../../../components/use-dialog-state.ts';
import { useResourceList } from '../../../components/use-resource-list.ts';
import { TooltipIconButton } from '../../../components/tooltip-icon-button.tsx';
import { DASH } from '../../../lib/format-date.ts';
import { appsQuery, repositoriesQuery } from '../../../lib/project-resources.ts';
import { inventoriesResource } from '../api/inventories-queries.ts';
import { AttachToTemplateDialog } from './attach-to-template-dialog.tsx';
import { InventoryDialog } from './inventory-dialog.tsx';
import { paths } from '../../../lib/paths.ts';

/** Apps whose inventories this screen creates: workspaces of terraform and tofu come from their templates. */
const INVENTORY_APPS = ['ansible'] as const;

const isWorkspace = (inventory: Inventory) =>
  inventory.type === 'terraform-workspace' || inventory.type === 'tofu-workspace';

/** One line that says where the hosts come from: the file path, or the start of the inline content. */
function InventorySource({ inventory, repositoryName }: { inventory: Inventory; repositoryName?: string }) {
  if (inventory.type === 'file' || isWorkspace(inventory)) {
    return (
      <Box component="code" sx={{ fontSize: 13 }}>
        {inventory.inventory || DASH}
        {repositoryName ? (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ fontFamily: 'inherit' }}>
            {` @ ${repositoryName}`}
          </Typography>
        ) : null}
      </Box>
    );
  }
  const lines = inventory.inventory.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return <>{DASH}</>;
  return (
    <Typography
      variant="body2"
      color="text.secondary"
      title={inventory.inventory}
      noWrap
      sx={{ fontFamily: 'monospace', fontSize: 13, maxWidth: 360 }}
    >
      {lines.slice(0, 3).join(' · ')}
      {lines.length > 3 ? ' …' : ''}
    </Typography>
  );
}

export function InventoriesPage() {
  const { t } = useTranslation();
  const list = useResourceList(inventoriesResource, {
    linkPage: 'inventory',
    canLink: (inventory) => !isWorkspace(inventory),
  });
  const { projectId, editDialog } = list;
  const repositories = useQuery(repositoriesQuery(projectId));
  const apps = useQuery(appsQuery);
  const attachDialog = useDialogState<Inventory>();
  const repositoryNames = new Map((repositories.data ?? []).map((repo) => [repo.id, repo.name]));

  const columns: Column<Inventory>[] = [
    {
      id: 'name',
      header: t('inventories.name'),
      fill: true,
      render: (inventory) => <span title={inventory.name}>{inventory.name}</span>,
    },
    {
      id: 'type',
      header: t('inventories.type'),
      hideBelow: 'sm',
      render: (inventory) => t(`inventories.types.${inventory.type}`),
    },
    {
      id: 'source',
      header: t('inventories.source'),
      hideBelow: 'md',
      render: (inventory) => (
        <InventorySource
          inventory={inventory}
          repositoryName={inventory.repository_id ? repositoryNames.get(inventory.repository_id) : undefined}
        />
      ),
    },
  ];
  const actions: Partial<RowActions<Inventory>> = {
    // Workspaces are attached to templates from the template's page, not edited here.
    canEdit: (inventory) => !isWorkspace(inventory),
    // Workspaces get an attach action instead of edit (seed 001 section 2): one no template holds is
    // attached here, one a template holds is attached, detached and made default on that template's page.
    extraActions: (inventory) => {
      if (!isWorkspace(inventory)) return null;
      const label = t('terraform.attachNamed', { name: inventory.name });
      return inventory.template_id === null ? (
        <TooltipIconButton
          title={t('terraform.attach')}
          label={label}
          onClick={() => attachDialog.show(inventory)}
          size="small"
        >
          <LinkIcon fontSize="small" />
        </TooltipIconButton>
      ) : (
        <Tooltip title={t('terraform.attachHeld')}>
          <IconButton
            size="small"
            component={RouterLink}
            to={paths.template(projectId, inventory.template_id, { page: 'state' })}
            aria-label={label}
          >
            <LinkIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      );
    },
  };

  const newInventoryMenu = (
    <AddMenuButton label={t('inventories.newInventory')}>
      {(closeThen) =>
        INVENTORY_APPS.map((appId) => {
          const app = apps.data?.find((candidate) => candidate.id === appId) ?? { id: appId, title: 'Ansible' };
          return (
            <IconMenuItem
              key={appId}
              icon={<AppIcon app={app} />}
              label={t('inventories.appInventory', { app: app.title })}
              onClick={closeThen(() => editDialog.show(undefined))}
            />
          );
        })
      }
    </AddMenuButton>
  );

  return (
    <ResourceListPage
      list={list}
      create={newInventoryMenu}
      columns={columns}
      actions={actions}
      dialog={InventoryDialog}
    >
      <AttachToTemplateDialog
        open={attachDialog.open}
        projectId={projectId}
        workspace={attachDialog.item}
        onClose={attachDialog.close}
      />
    </ResourceListPage>
  );
}
