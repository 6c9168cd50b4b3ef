import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { projectsApi, teamApi } from '@gantry/contract';
import type { AddTeamMemberBody, ProjectRoleSlug } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { projectRoleQuery } from '../../../lib/shared-queries.ts';

export const teamQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'users'],
    queryFn: ({ signal }) =>
      api(teamApi.list, { params: { projectId }, query: { sort: 'name', order: 'asc' }, signal }),
  });

function useInvalidateTeam(projectId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamQuery(projectId).queryKey }),
      // Changing one's own role changes what the menu and the pages offer.
      queryClient.invalidateQueries({ queryKey: projectRoleQuery(projectId).queryKey }),
    ]);
}

export function useAddTeamMember(projectId: number) {
  const invalidate = useInvalidateTeam(projectId);
  return useMutation({
    mutationFn: (body: AddTeamMemberBody) => api(teamApi.add, { params: { projectId }, body }),
    onSuccess: invalidate,
  });
}

export function useUpdateTeamMemberRole(projectId: number) {
  const invalidate = useInvalidateTeam(projectId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: ProjectRoleSlug }) =>
      api(teamApi.update, { params: { projectId, userId }, body: { role } }),
    onSuccess: invalidate,
  });
}

export function useRemoveTeamMember(projectId: number) {
  const invalidate = useInvalidateTeam(projectId);
  return useMutation({
    mutationFn: (userId: number) => api(teamApi.remove, { params: { projectId, userId } }),
    onSuccess: invalidate,
  });
}

export function useLeaveProject(projectId: number) {
  return useMutation({ mutationFn: () => api(projectsApi.leave, { params: { projectId } }) });
}
