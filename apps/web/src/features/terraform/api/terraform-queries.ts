import { queryOptions } from '@tanstack/react-query';
import { TERRAFORM_STATES_PER_PAGE, inventoriesApi, terraformApi, workspacesApi } from '@gantry/contract';
import type { InventoryBody, TerraformAliasBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/mutations.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

const terraformKey = (projectId: number, inventoryId: number) =>
  [...resourceKeys.inventories(projectId), 'terraform', inventoryId] as const;

/** The workspaces attached to a template. */
export const templateWorkspacesQuery = (projectId: number, templateId: number, app: string) =>
  queryOptions({
    queryKey: [...resourceKeys.inventories(projectId), 'template', templateId, app] as const,
    queryFn: ({ signal }) =>
      api(inventoriesApi.list, { params: { projectId }, query: { app, template_id: templateId }, signal }),
  });

export const aliasesQuery = (projectId: number, inventoryId: number) =>
  queryOptions({
    queryKey: [...terraformKey(projectId, inventoryId), 'aliases'] as const,
    queryFn: ({ signal }) => api(terraformApi.listAliases, { params: { projectId, inventoryId }, signal }),
  });

/** One page of the state history; one row more than a page tells whether a next page exists. */
export const statesPageQuery = (projectId: number, inventoryId: number, page: number) =>
  queryOptions({
    queryKey: [...terraformKey(projectId, inventoryId), 'states', page] as const,
    queryFn: async ({ signal }) => {
      const rows = await api(terraformApi.listStates, {
        params: { projectId, inventoryId },
        query: { limit: TERRAFORM_STATES_PER_PAGE + 1, offset: page * TERRAFORM_STATES_PER_PAGE },
        signal,
      });
      return { rows: rows.slice(0, TERRAFORM_STATES_PER_PAGE), hasMore: rows.length > TERRAFORM_STATES_PER_PAGE };
    },
  });

export const lockQuery = (projectId: number, inventoryId: number) =>
  queryOptions({
    queryKey: [...terraformKey(projectId, inventoryId), 'lock'] as const,
    queryFn: ({ signal }) => api(terraformApi.getLock, { params: { projectId, inventoryId }, signal }),
  });

export function useRemoveLock(projectId: number, inventoryId: number) {
  return useRefreshingMutation([lockQuery(projectId, inventoryId).queryKey], () =>
    api(terraformApi.removeLock, { params: { projectId, inventoryId } }),
  );
}

export const stateQuery = (projectId: number, inventoryId: number, stateId: number) =>
  queryOptions({
    queryKey: [...terraformKey(projectId, inventoryId), 'state', stateId] as const,
    queryFn: ({ signal }) => api(terraformApi.getState, { params: { projectId, inventoryId, stateId }, signal }),
    staleTime: Infinity,
  });

// The template's default workspace is its inventory_id.
const refreshFor = (projectId: number) => [resourceKeys.inventories(projectId), resourceKeys.templates(projectId)];

export type WorkspaceAction = 'attach' | 'detach' | 'setDefault';

export function useWorkspaceAction(projectId: number, templateId: number) {
  return useRefreshingMutation(
    refreshFor(projectId),
    ({ action, inventoryId }: { action: WorkspaceAction; inventoryId: number }) =>
      api(workspacesApi[action], { params: { projectId, templateId, inventoryId } }),
  );
}

export function useCreateWorkspace(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), (body: InventoryBody) =>
    api(inventoriesApi.create, { params: { projectId }, body }),
  );
}

export function useDeleteWorkspace(projectId: number) {
  return useRefreshingMutation(refreshFor(projectId), (inventoryId: number) =>
    api(inventoriesApi.remove, { params: { projectId, inventoryId } }),
  );
}

export function useCreateAlias(projectId: number, inventoryId: number) {
  return useRefreshingMutation([aliasesQuery(projectId, inventoryId).queryKey], (body: TerraformAliasBody) =>
    api(terraformApi.createAlias, { params: { projectId, inventoryId }, body }),
  );
}

export function useDeleteAlias(projectId: number, inventoryId: number) {
  return useRefreshingMutation([aliasesQuery(projectId, inventoryId).queryKey], (aliasId: number) =>
    api(terraformApi.removeAlias, { params: { projectId, inventoryId, aliasId } }),
  );
}

export function useDeleteState(projectId: number, inventoryId: number) {
  return useRefreshingMutation([[...terraformKey(projectId, inventoryId), 'states']], (stateId: number) =>
    api(terraformApi.removeState, { params: { projectId, inventoryId, stateId } }),
  );
}
