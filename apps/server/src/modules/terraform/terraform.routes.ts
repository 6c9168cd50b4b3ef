import { Permission, terraformApi, workspacesApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { TerraformService } from './terraform.service.ts';
import type { WorkspacesService } from './workspaces.service.ts';

export function registerTerraformRoutes(
  route: Routes,
  { terraform, workspaces }: { terraform: TerraformService; workspaces: WorkspacesService },
) {
  const manage = projectMember(Permission.manageProjectResources);
  route(terraformApi.listAliases, projectMember(), ({ access, params }) =>
    terraform.listAliases(access.project.id, params.inventoryId),
  );
  route(terraformApi.createAlias, manage, ({ actor, access, params, body }) =>
    terraform.createAlias(actor, access.project.id, params.inventoryId, body),
  );
  route(terraformApi.getAlias, projectMember(), ({ access, params }) =>
    terraform.getAlias(access.project.id, params.inventoryId, params.aliasId),
  );
  route(terraformApi.updateAlias, manage, ({ actor, access, params, body }) =>
    terraform.updateAlias(actor, access.project.id, params.inventoryId, params.aliasId, body),
  );
  route(terraformApi.removeAlias, manage, ({ actor, access, params }) =>
    terraform.removeAlias(actor, access.project.id, params.inventoryId, params.aliasId),
  );
  route(terraformApi.listStates, projectMember(), ({ access, params, query }) =>
    terraform.listStates(access.project.id, params.inventoryId, query),
  );
  // A state holds whatever the infrastructure holds (passwords included): reading one takes the right to manage resources.
  route(terraformApi.latestState, manage, ({ access, params }) =>
    terraform.getState(access.project.id, params.inventoryId, 'latest'),
  );
  route(terraformApi.getState, manage, ({ access, params }) =>
    terraform.getState(access.project.id, params.inventoryId, params.stateId),
  );
  route(terraformApi.getLock, projectMember(), ({ access, params }) =>
    terraform.getLock(access.project.id, params.inventoryId),
  );
  route(terraformApi.removeLock, manage, ({ actor, access, params }) =>
    terraform.removeLock(actor, access.project.id, params.inventoryId),
  );
  route(terraformApi.removeState, manage, ({ actor, access, params }) =>
    terraform.removeState(actor, access.project.id, params.inventoryId, params.stateId),
  );

  route(workspacesApi.attach, manage, ({ actor, access, params }) =>
    workspaces.attach(actor, access.project.id, params.templateId, params.inventoryId),
  );
  route(workspacesApi.detach, manage, ({ actor, access, params }) =>
    workspaces.detach(actor, access.project.id, params.templateId, params.inventoryId),
  );
  route(workspacesApi.setDefault, manage, ({ actor, access, params }) =>
    workspaces.setDefault(actor, access.project.id, params.templateId, params.inventoryId),
  );
}
