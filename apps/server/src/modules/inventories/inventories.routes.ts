import { Permission, inventoriesApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { InventoriesService } from './inventories.service.ts';

export function registerInventoriesRoutes(route: Routes, { inventories }: { inventories: InventoriesService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(inventoriesApi.list, projectMember(), ({ access, query }) =>
    inventories.list(access.project.id, query.order ?? 'asc', { app: query.app, templateId: query.template_id }),
  );
  route(inventoriesApi.create, manage, ({ actor, access, body }) => inventories.create(actor, access.project.id, body));
  route(inventoriesApi.get, projectMember(), ({ access, params }) =>
    inventories.get(access.project.id, params.inventoryId),
  );
  route(inventoriesApi.refs, projectMember(), ({ access, params }) =>
    inventories.refs(access.project.id, params.inventoryId),
  );
  route(inventoriesApi.update, manage, ({ actor, access, params, body }) =>
    inventories.update(actor, access.project.id, params.inventoryId, body),
  );
  route(inventoriesApi.remove, manage, ({ actor, access, params }) =>
    inventories.remove(actor, access.project.id, params.inventoryId),
  );
}
