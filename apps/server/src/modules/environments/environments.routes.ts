import { environmentsApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import type { EnvironmentsService } from './environments.service.ts';

export function registerEnvironmentsRoutes(route: Routes, { environments }: { environments: EnvironmentsService }) {
  routeProjectResource(route, environmentsApi, 'environmentId', environments, ({ access, query }) =>
    environments.list(access.project.id, query.order ?? 'asc'),
  );
}
