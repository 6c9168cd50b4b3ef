import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { projectsApi } from '@gantry/contract';
import type { CreateProjectBody, UpdateProjectBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { projectsQuery } from '../../../lib/shared-queries.ts';

export const projectQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId],
    queryFn: ({ signal }) => api(projectsApi.get, { params: { projectId }, signal }),
  });

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProjectBody) => api(projectsApi.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey, exact: true }),
  });
}

export function useUpdateProject(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProjectBody) => api(projectsApi.update, { params: { projectId }, body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: projectQuery(projectId).queryKey, exact: true }),
      ]),
  });
}

/** Deletes a project; the list is refreshed before the caller moves on to another project. */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (projectId: number) => api(projectsApi.remove, { params: { projectId } }),
    onSuccess: async (_, projectId) => {
      queryClient.removeQueries({ queryKey: projectQuery(projectId).queryKey });
      await queryClient.invalidateQueries({ queryKey: projectsQuery.queryKey, exact: true });
    },
  });
}
