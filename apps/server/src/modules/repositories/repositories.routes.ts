import { Permission, repositoriesApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { RepositoriesService } from './repositories.service.ts';

export function registerRepositoriesRoutes(route: Routes, { repositories }: { repositories: RepositoriesService }) {
  const manage = projectMember(Permission.manageProjectResources);
  route(repositoriesApi.list, projectMember(), ({ access, query }) =>
    repositories.list(access.project.id, query.sort ?? 'name', query.order ?? 'asc'),
  );
  route(repositoriesApi.create, manage, ({ actor, access, body }) =>
    repositories.create(actor, access.project.id, body),
  );
  route(repositoriesApi.get, projectMember(), ({ access, params }) =>
    repositories.get(access.project.id, params.repositoryId),
  );
  route(repositoriesApi.refs, projectMember(), ({ access, params }) =>
    repositories.refs(access.project.id, params.repositoryId),
  );
  route(repositoriesApi.update, manage, ({ actor, access, params, body }) =>
    repositories.update(actor, access.project.id, params.repositoryId, body),
  );
  route(repositoriesApi.remove, manage, ({ actor, access, params }) =>
    repositories.remove(actor, access.project.id, params.repositoryId),
  );
}
