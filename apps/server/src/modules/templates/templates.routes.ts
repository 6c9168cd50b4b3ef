import { templatesApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { TemplatesService } from './templates.service.ts';

export function registerTemplatesRoutes(route: Routes, { templates }: { templates: TemplatesService }) {
  routeProjectResource(route, templatesApi, 'templateId', templates, ({ access, query }) =>
    templates.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc', query.app ? { app: query.app } : {}),
  );
  route(templatesApi.listByView, projectMember(), ({ access, params, query }) =>
    templates.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc', {
      viewId: params.viewId,
      ...(query.app ? { app: query.app } : {}),
    }),
  );
}
