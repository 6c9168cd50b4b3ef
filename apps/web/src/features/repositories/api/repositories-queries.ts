import { repositoriesApi } from '@gantry/contract';
import type { RepositoryBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
import { repositoriesQuery, resourceKeys } from '../../../lib/project-resources.ts';

export function useSaveRepository(projectId: number) {
  return useSaveMutation<RepositoryBody>(
    [resourceKeys.repositories(projectId)],
    (body) => api(repositoriesApi.create, { params: { projectId }, body }),
    (repositoryId, body) => api(repositoriesApi.update, { params: { projectId, repositoryId }, body }),
  );
}

function useDeleteRepository(projectId: number) {
  return useRefreshingMutation([resourceKeys.repositories(projectId)], (repositoryId: number) =>
    api(repositoriesApi.remove, { params: { projectId, repositoryId } }),
  );
}

const loadRepositoryRefs = (projectId: number, repositoryId: number) =>
  api(repositoriesApi.refs, { params: { projectId, repositoryId } });

/** Repositories as their list page knows them. */
export const repositoriesResource = {
  section: 'repositories',
  query: repositoriesQuery,
  useRemove: useDeleteRepository,
  loadRefs: loadRepositoryRefs,
};
