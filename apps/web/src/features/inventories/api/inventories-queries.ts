import { inventoriesApi } from '@gantry/contract';
import type { InventoryBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
import { inventoriesQuery, resourceKeys } from '../../../lib/project-resources.ts';

export function useSaveInventory(projectId: number) {
  return useSaveMutation<InventoryBody>(
    [resourceKeys.inventories(projectId)],
    (body) => api(inventoriesApi.create, { params: { projectId }, body }),
    (inventoryId, body) => api(inventoriesApi.update, { params: { projectId, inventoryId }, body }),
  );
}

function useDeleteInventory(projectId: number) {
  return useRefreshingMutation([resourceKeys.inventories(projectId)], (inventoryId: number) =>
    api(inventoriesApi.remove, { params: { projectId, inventoryId } }),
  );
}

const loadInventoryRefs = (projectId: number, inventoryId: number) =>
  api(inventoriesApi.refs, { params: { projectId, inventoryId } });

/** Inventories as their list page knows them. */
export const inventoriesResource = {
  section: 'inventories',
  query: inventoriesQuery,
  useRemove: useDeleteInventory,
  loadRefs: loadInventoryRefs,
};
