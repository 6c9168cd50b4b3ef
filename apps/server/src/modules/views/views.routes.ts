import { Permission, viewsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { ViewsService } from './views.service.ts';

export function registerViewsRoutes(route: Routes, { views }: { views: ViewsService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(viewsApi.list, projectMember(), ({ access }) => views.list(access.project.id));
  route(viewsApi.create, manage, ({ actor, access, body }) => views.create(actor, access.project.id, body));
  route(viewsApi.positions, manage, ({ access, body }) => views.setPositions(access.project.id, body));
  route(viewsApi.get, projectMember(), ({ access, params }) => views.get(access.project.id, params.viewId));
  route(viewsApi.update, manage, ({ actor, access, params, body }) =>
    views.update(actor, access.project.id, params.viewId, body),
  );
  route(viewsApi.remove, manage, ({ actor, access, params }) => views.remove(actor, access.project.id, params.viewId));
}
