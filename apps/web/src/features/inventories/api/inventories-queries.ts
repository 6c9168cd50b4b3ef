import { useMutation, useQueryClient } from '@tanstack/react-query';
import { inventoriesApi } from '@gantry/contract';
import type { InventoryBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

function useInvalidateInventories(projectId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: resourceKeys.inventories(projectId) });
}

export function useSaveInventory(projectId: number) {
  const invalidate = useInvalidateInventories(projectId);
  return useMutation({
    mutationFn: async ({ inventoryId, body }: { inventoryId?: number; body: InventoryBody }): Promise<void> => {
      if (inventoryId) await api(inventoriesApi.update, { params: { projectId, inventoryId }, body });
      else await api(inventoriesApi.create, { params: { projectId }, body });
    },
    onSuccess: invalidate,
  });
}

export function useDeleteInventory(projectId: number) {
  const invalidate = useInvalidateInventories(projectId);
  return useMutation({
    mutationFn: (inventoryId: number) => api(inventoriesApi.remove, { params: { projectId, inventoryId } }),
    onSuccess: invalidate,
  });
}

export const loadInventoryRefs = (projectId: number, inventoryId: number) =>
  api(inventoriesApi.refs, { params: { projectId, inventoryId } });
