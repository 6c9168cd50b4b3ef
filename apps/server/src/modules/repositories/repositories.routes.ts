import { repositoriesApi } from '@gantry/contract';
import { routeProjectResource } from '../../http/resource-routes.ts';
import type { Routes } from '../../http/route.ts';
import type { RepositoriesService } from './repositories.service.ts';

export function registerRepositoriesRoutes(route: Routes, { repositories }: { repositories: RepositoriesService }) {
  routeProjectResource(route, repositoriesApi, 'repositoryId', repositories, ({ access, query }) =>
    repositories.list(access, query.sort ?? 'name', query.order ?? 'asc'),
  );
}
