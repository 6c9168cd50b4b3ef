import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { environmentsApi } from '@gantry/contract';
import type { EnvironmentBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

/** One variable group with the names and types of its secrets. */
export const environmentQuery = (projectId: number, environmentId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.environments(projectId), environmentId],
    queryFn: ({ signal }) => api(environmentsApi.get, { params: { projectId, environmentId }, signal }),
    staleTime: 0,
  });

function useInvalidateEnvironments(projectId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: resourceKeys.environments(projectId) });
}

export function useSaveEnvironment(projectId: number) {
  const invalidate = useInvalidateEnvironments(projectId);
  return useMutation({
    mutationFn: async ({ environmentId, body }: { environmentId?: number; body: EnvironmentBody }): Promise<void> => {
      if (environmentId) await api(environmentsApi.update, { params: { projectId, environmentId }, body });
      else await api(environmentsApi.create, { params: { projectId }, body });
    },
    onSuccess: invalidate,
  });
}

export function useDeleteEnvironment(projectId: number) {
  const invalidate = useInvalidateEnvironments(projectId);
  return useMutation({
    mutationFn: (environmentId: number) => api(environmentsApi.remove, { params: { projectId, environmentId } }),
    onSuccess: invalidate,
  });
}

export const loadEnvironmentRefs = (projectId: number, environmentId: number) =>
  api(environmentsApi.refs, { params: { projectId, environmentId } });
