import { Permission, integrationMatchersApi, integrationValuesApi, integrationsApi } from '@gantry/contract';
import type { FastifyRequest } from 'fastify';
import { routeProjectResource, routeResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { ProjectAccess } from '../projects/projects.service.ts';
import type { IntegrationsService } from './integrations.service.ts';

/** The address the caller used, for alias URLs when no public web_host is configured. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** An integration's values and matchers: the service takes the project's and the integration's ids. */
const inIntegration = (access: ProjectAccess, params: { integrationId: number }): [number, number] => [
  access.project.id,
  params.integrationId,
];

export function registerIntegrationsRoutes(route: Routes, { integrations }: { integrations: IntegrationsService }) {
  const manage = projectMember(Permission.manageProjectResources);
  // An alias starts the integration's template with values from the request: only who may run tasks reads one.
  const seeAliases = projectMember(Permission.runProjectTasks);
  const api = integrationsApi;

  routeProjectResource(route, api, 'integrationId', integrations, ({ access, query }) =>
    integrations.list(access.project.id, query.order),
  );

  route(api.listAliases, seeAliases, ({ access, params, request }) =>
    integrations.listAliases(access.project.id, params.integrationId, originOf(request)),
  );
  route(api.createAlias, manage, ({ actor, access, params, request }) =>
    integrations.createAlias(actor, access.project.id, params.integrationId, originOf(request)),
  );
  route(api.removeAlias, manage, ({ actor, access, params }) =>
    integrations.removeAlias(actor, access.project.id, params.integrationId, params.aliasId),
  );
  route(api.listProjectAliases, seeAliases, ({ access, request }) =>
    integrations.listAliases(access.project.id, null, originOf(request)),
  );
  route(api.createProjectAlias, manage, ({ actor, access, request }) =>
    integrations.createAlias(actor, access.project.id, null, originOf(request)),
  );
  route(api.removeProjectAlias, manage, ({ actor, access, params }) =>
    integrations.removeAlias(actor, access.project.id, null, params.aliasId),
  );

  routeResource(route, integrationValuesApi, {
    id: 'valueId',
    scope: inIntegration,
    service: integrations.values,
    list: ({ access, params, query }) => integrations.values.list(access.project.id, params.integrationId, query.order),
  });
  routeResource(route, integrationMatchersApi, {
    id: 'matcherId',
    scope: inIntegration,
    service: integrations.matchers,
    list: ({ access, params, query }) =>
      integrations.matchers.list(access.project.id, params.integrationId, query.order),
  });
}
