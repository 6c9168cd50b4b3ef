import { Permission, environmentsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { EnvironmentsService } from './environments.service.ts';

export function registerEnvironmentsRoutes(route: Routes, { environments }: { environments: EnvironmentsService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(environmentsApi.list, projectMember(), ({ access, query }) =>
    environments.list(access.project.id, query.order ?? 'asc'),
  );
  route(environmentsApi.create, manage, ({ actor, access, body }) =>
    environments.create(actor, access.project.id, body),
  );
  route(environmentsApi.get, projectMember(), ({ access, params }) =>
    environments.get(access.project.id, params.environmentId),
  );
  route(environmentsApi.refs, projectMember(), ({ access, params }) =>
    environments.refs(access.project.id, params.environmentId),
  );
  route(environmentsApi.update, manage, ({ actor, access, params, body }) =>
    environments.update(actor, access.project.id, params.environmentId, body),
  );
  route(environmentsApi.remove, manage, ({ actor, access, params }) =>
    environments.remove(actor, access.project.id, params.environmentId),
  );
}
