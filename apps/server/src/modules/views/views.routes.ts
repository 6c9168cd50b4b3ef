import { Permission, viewsApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { ViewsService } from './views.service.ts';

export function registerViewsRoutes(route: Routes, { views }: { views: ViewsService }) {
  routeProjectResource(route, viewsApi, 'viewId', views, ({ access }) => views.list(access.project.id));
  route(viewsApi.positions, projectMember(Permission.manageProjectResources), ({ access, body }) =>
    views.setPositions(access.project.id, body),
  );
}
