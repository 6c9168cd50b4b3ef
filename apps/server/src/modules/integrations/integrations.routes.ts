import { Permission, integrationsApi } from '@gantry/contract';
import type { FastifyRequest } from 'fastify';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { IntegrationsService } from './integrations.service.ts';

/** The address the caller used, for alias URLs when no public web_host is configured. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export function registerIntegrationsRoutes(route: Routes, { integrations }: { integrations: IntegrationsService }) {
  const read = projectMember();
  const manage = projectMember(Permission.manageProjectResources);
  const api = integrationsApi;

  route(api.list, read, ({ access, query }) => integrations.list(access.project.id, query.order));
  route(api.create, manage, ({ actor, access, body }) => integrations.create(actor, access.project.id, body));
  route(api.get, read, ({ access, params }) => integrations.get(access.project.id, params.integrationId));
  route(api.update, manage, ({ actor, access, params, body }) =>
    integrations.update(actor, access.project.id, params.integrationId, body),
  );
  route(api.remove, manage, ({ actor, access, params }) =>
    integrations.remove(actor, access.project.id, params.integrationId),
  );
  route(api.refs, read, ({ access, params }) => integrations.refs(access.project.id, params.integrationId));

  route(api.listAliases, read, ({ access, params, request }) =>
    integrations.listAliases(access.project.id, params.integrationId, originOf(request)),
  );
  route(api.createAlias, manage, ({ actor, access, params, request }) =>
    integrations.createAlias(actor, access.project.id, params.integrationId, originOf(request)),
  );
  route(api.removeAlias, manage, ({ actor, access, params }) =>
    integrations.removeAlias(actor, access.project.id, params.integrationId, params.aliasId),
  );
  route(api.listProjectAliases, read, ({ access, request }) =>
    integrations.listAliases(access.project.id, null, originOf(request)),
  );
  route(api.createProjectAlias, manage, ({ actor, access, request }) =>
    integrations.createAlias(actor, access.project.id, null, originOf(request)),
  );
  route(api.removeProjectAlias, manage, ({ actor, access, params }) =>
    integrations.removeAlias(actor, access.project.id, null, params.aliasId),
  );

  route(api.listValues, read, ({ access, params, query }) =>
    integrations.listValues(access.project.id, params.integrationId, query.order),
  );
  route(api.createValue, manage, ({ actor, access, params, body }) =>
    integrations.createValue(actor, access.project.id, params.integrationId, body),
  );
  route(api.getValue, read, ({ access, params }) =>
    integrations.getValue(access.project.id, params.integrationId, params.valueId),
  );
  route(api.updateValue, manage, ({ actor, access, params, body }) =>
    integrations.updateValue(actor, access.project.id, params.integrationId, params.valueId, body),
  );
  route(api.removeValue, manage, ({ actor, access, params }) =>
    integrations.removeValue(actor, access.project.id, params.integrationId, params.valueId),
  );
  route(api.valueRefs, read, ({ access, params }) =>
    integrations.valueRefs(access.project.id, params.integrationId, params.valueId),
  );

  route(api.listMatchers, read, ({ access, params, query }) =>
    integrations.listMatchers(access.project.id, params.integrationId, query.order),
  );
  route(api.createMatcher, manage, ({ actor, access, params, body }) =>
    integrations.createMatcher(actor, access.project.id, params.integrationId, body),
  );
  route(api.getMatcher, read, ({ access, params }) =>
    integrations.getMatcher(access.project.id, params.integrationId, params.matcherId),
  );
  route(api.updateMatcher, manage, ({ actor, access, params, body }) =>
    integrations.updateMatcher(actor, access.project.id, params.integrationId, params.matcherId, body),
  );
  route(api.removeMatcher, manage, ({ actor, access, params }) =>
    integrations.removeMatcher(actor, access.project.id, params.integrationId, params.matcherId),
  );
  route(api.matcherRefs, read, ({ access, params }) =>
    integrations.matcherRefs(access.project.id, params.integrationId, params.matcherId),
  );
}
