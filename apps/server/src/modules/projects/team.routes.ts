import { Permission, projectsApi, teamApi } from '@gantry/contract';
import type { Routes } from '../../http/route.ts';
import { projectMember } from '../../http/route.ts';
import type { TeamService } from './team.service.ts';

export function registerTeamRoutes(route: Routes, { team }: { team: TeamService }) {
  const manageUsers = projectMember(Permission.manageProjectUsers);
  route(teamApi.list, projectMember(), ({ access, query }) =>
    team.list(access.project, query.sort ?? 'name', query.order ?? 'asc'),
  );
  route(teamApi.get, projectMember(), ({ access, params }) => team.get(access.project, params.userId));
  route(teamApi.add, manageUsers, ({ actor, access, body }) =>
    team.add(actor, access.project, body.user_id, body.role),
  );
  route(teamApi.update, manageUsers, ({ actor, access, params, body }) =>
    team.updateRole(actor, access.project, params.userId, body.role),
  );
  route(teamApi.remove, manageUsers, ({ actor, access, params }) => team.remove(actor, access.project, params.userId));
  route(projectsApi.leave, projectMember(), ({ actor, access }) => team.leave(actor, access.project));
}
