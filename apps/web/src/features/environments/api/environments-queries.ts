import { queryOptions } from '@tanstack/react-query';
import { environmentsApi } from '@gantry/contract';
import type { EnvironmentBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
import { environmentsQuery, resourceKeys } from '../../../lib/project-resources.ts';

/** One variable group with the names and types of its secrets. */
export const environmentQuery = (projectId: number, environmentId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.environments(projectId), environmentId],
    queryFn: ({ signal }) => api(environmentsApi.get, { params: { projectId, environmentId }, signal }),
    staleTime: 0,
  });

export function useSaveEnvironment(projectId: number) {
  return useSaveMutation<EnvironmentBody>(
    [resourceKeys.environments(projectId)],
    (body) => api(environmentsApi.create, { params: { projectId }, body }),
    (environmentId, body) => api(environmentsApi.update, { params: { projectId, environmentId }, body }),
  );
}

function useDeleteEnvironment(projectId: number) {
  return useRefreshingMutation([resourceKeys.environments(projectId)], (environmentId: number) =>
    api(environmentsApi.remove, { params: { projectId, environmentId } }),
  );
}

const loadEnvironmentRefs = (projectId: number, environmentId: number) =>
  api(environmentsApi.refs, { params: { projectId, environmentId } });

/** Environments as their list page knows them. */
export const environmentsResource = {
  section: 'environments',
  query: environmentsQuery,
  useRemove: useDeleteEnvironment,
  loadRefs: loadEnvironmentRefs,
};
