import { queryOptions, useMutation } from '@tanstack/react-query';
import { projectsApi, teamApi } from '@gantry/contract';
import type { AddTeamMemberBody, ProjectRoleSlug } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { projectRoleQuery } from '../../../lib/shared-queries.ts';

export const teamQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'users'],
    queryFn: ({ signal }) =>
      api(teamApi.list, { params: { projectId }, query: { sort: 'name', order: 'asc' }, signal }),
  });

// Changing one's own role changes what the menu and the pages offer.
const refreshFor = (projectId: number) => [teamQuery(projectId).queryKey, projectRoleQuery(projectId).queryKey];

export function useAddTeamMember(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), (body: AddTeamMemberBody) =>
    api(teamApi.add, { params: { projectId }, body }),
  );
}

export function useUpdateTeamMemberRole(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), ({ userId, role }: { userId: number; role: ProjectRoleSlug }) =>
    api(teamApi.update, { params: { projectId, userId }, body: { role } }),
  );
}

export function useRemoveTeamMember(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), (userId: number) =>
    api(teamApi.remove, { params: { projectId, userId } }),
  );
}

export function useLeaveProject(projectId: number) {
  return useMutation({ mutationFn: () => api(projectsApi.leave, { params: { projectId } }) });
}
