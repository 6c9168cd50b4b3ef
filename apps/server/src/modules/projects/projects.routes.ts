import { Permission, projectsApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { PROJECT_CREATOR, SIGNED_IN, projectMember } from '../../http/route.ts';
import type { ProjectsService } from './projects.service.ts';
import { toProject } from './projects.service.ts';

export function registerProjectsRoutes(route: Routes, { projects }: { projects: ProjectsService }) {
  route(projectsApi.list, SIGNED_IN, ({ actor }) => projects.list(actor));
  route(projectsApi.create, PROJECT_CREATOR, ({ actor, body }) => projects.create(actor, body));
  route(projectsApi.get, projectMember(), ({ access }) => toProject(access.project));
  route(projectsApi.update, projectMember(Permission.updateProject), ({ actor, access, body }) =>
    projects.update(actor, access.project, body),
  );
  route(projectsApi.remove, projectMember(Permission.updateProject), ({ actor, access }) =>
    projects.remove(actor, access.project),
  );
  route(projectsApi.role, projectMember(), ({ access }) => projects.role(access));
}
