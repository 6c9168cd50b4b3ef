import { inventoriesApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import type { InventoriesService } from './inventories.service.ts';

export function registerInventoriesRoutes(route: Routes, { inventories }: { inventories: InventoriesService }) {
  routeProjectResource(route, inventoriesApi, 'inventoryId', inventories, ({ access, query }) =>
    inventories.list(access.project.id, query.order ?? 'asc', { app: query.app, templateId: query.template_id }),
  );
}
