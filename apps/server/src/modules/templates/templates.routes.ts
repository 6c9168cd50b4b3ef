import { Permission, templatesApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { TemplatesService } from './templates.service.ts';

export function registerTemplatesRoutes(route: Routes, { templates }: { templates: TemplatesService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(templatesApi.list, projectMember(), ({ access, query }) =>
    templates.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc', query.app ? { app: query.app } : {}),
  );
  route(templatesApi.listByView, projectMember(), ({ access, params, query }) =>
    templates.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc', {
      viewId: params.viewId,
      ...(query.app ? { app: query.app } : {}),
    }),
  );
  route(templatesApi.create, manage, ({ actor, access, body }) => templates.create(actor, access.project.id, body));
  route(templatesApi.get, projectMember(), ({ access, params }) => templates.get(access.project.id, params.templateId));
  route(templatesApi.refs, projectMember(), ({ access, params }) =>
    templates.refs(access.project.id, params.templateId),
  );
  route(templatesApi.update, manage, ({ actor, access, params, body }) =>
    templates.update(actor, access.project.id, params.templateId, body),
  );
  route(templatesApi.remove, manage, ({ actor, access, params }) =>
    templates.remove(actor, access.project.id, params.templateId),
  );
}
