import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keysApi } from '@gantry/contract';
import type { KeyBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

function useInvalidateKeys(projectId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: resourceKeys.keys(projectId) });
}

export function useSaveKey(projectId: number) {
  const invalidate = useInvalidateKeys(projectId);
  return useMutation({
    mutationFn: async ({ keyId, body }: { keyId?: number; body: KeyBody }): Promise<void> => {
      if (keyId) await api(keysApi.update, { params: { projectId, keyId }, body });
      else await api(keysApi.create, { params: { projectId }, body });
    },
    onSuccess: invalidate,
  });
}

export function useDeleteKey(projectId: number) {
  const invalidate = useInvalidateKeys(projectId);
  return useMutation({
    mutationFn: (keyId: number) => api(keysApi.remove, { params: { projectId, keyId } }),
    onSuccess: invalidate,
  });
}

export const loadKeyRefs = (projectId: number, keyId: number) => api(keysApi.refs, { params: { projectId, keyId } });
