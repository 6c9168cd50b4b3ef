import { useMutation, useQueryClient } from '@tanstack/react-query';
import { repositoriesApi } from '@gantry/contract';
import type { RepositoryBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

function useInvalidateRepositories(projectId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: resourceKeys.repositories(projectId) });
}

export function useSaveRepository(projectId: number) {
  const invalidate = useInvalidateRepositories(projectId);
  return useMutation({
    mutationFn: async ({ repositoryId, body }: { repositoryId?: number; body: RepositoryBody }): Promise<void> => {
      if (repositoryId) await api(repositoriesApi.update, { params: { projectId, repositoryId }, body });
      else await api(repositoriesApi.create, { params: { projectId }, body });
    },
    onSuccess: invalidate,
  });
}

export function useDeleteRepository(projectId: number) {
  const invalidate = useInvalidateRepositories(projectId);
  return useMutation({
    mutationFn: (repositoryId: number) => api(repositoriesApi.remove, { params: { projectId, repositoryId } }),
    onSuccess: invalidate,
  });
}

export const loadRepositoryRefs = (projectId: number, repositoryId: number) =>
  api(repositoriesApi.refs, { params: { projectId, repositoryId } });
