import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { projectsApi } from '@gantry/contract';
import type { CreateProjectBody, UpdateProjectBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { projectsQuery } from '../../../lib/shared-queries.ts';

export const projectQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId],
    queryFn: ({ signal }) => api(projectsApi.get, { params: { projectId }, signal }),
  });

/** Only the list itself: the keys under ['projects'] are every project's resources. */
export const projectListRefresh = { queryKey: projectsQuery.queryKey, exact: true };

export function useCreateProject() {
  return useRefreshingMutation([projectListRefresh], (body: CreateProjectBody) => api(projectsApi.create, { body }));
}

export function useUpdateProject(projectId: number) {
  return useRefreshingMutation(
    [projectListRefresh, { queryKey: projectQuery(projectId).queryKey, exact: true }],
    (body: UpdateProjectBody) => api(projectsApi.update, { params: { projectId }, body }),
  );
}

/** Deletes a project; the list is refreshed before the caller moves on to another project. */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: number) => api(projectsApi.remove, { params: { projectId } }),
    onSuccess: async (_, projectId) => {
      queryClient.removeQueries({ queryKey: projectQuery(projectId).queryKey });
      await queryClient.invalidateQueries(projectListRefresh);
    },
  });
}
