import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { TERRAFORM_STATES_PER_PAGE, inventoriesApi, terraformApi, workspacesApi } from '@gantry/contract';
import type { InventoryBody, TerraformAliasBody } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(terraformApi.removeLock, { params: { projectId, inventoryId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lockQuery(projectId, inventoryId).queryKey }),
  });
}

export const stateQuery = (projectId: number, inventoryId: number, stateId: number) =>
  queryOptions({
    queryKey: [...terraformKey(projectId, inventoryId), 'state', stateId] as const,
    queryFn: ({ signal }) => api(terraformApi.getState, { params: { projectId, inventoryId, stateId }, signal }),
    staleTime: Infinity,
  });

function useInvalidateInventories(projectId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: resourceKeys.inventories(projectId) }),
      // The template's default workspace is its inventory_id.
      queryClient.invalidateQueries({ queryKey: resourceKeys.templates(projectId) }),
    ]);
}

export type WorkspaceAction = 'attach' | 'detach' | 'setDefault';

export function useWorkspaceAction(projectId: number, templateId: number) {
  const invalidate = useInvalidateInventories(projectId);
  return useMutation({
    mutationFn: ({ action, inventoryId }: { action: WorkspaceAction; inventoryId: number }) =>
      api(workspacesApi[action], { params: { projectId, templateId, inventoryId } }),
    onSuccess: invalidate,
  });
}

export function useCreateWorkspace(projectId: number) {
  const invalidate = useInvalidateInventories(projectId);
  return useMutation({
    mutationFn: (body: InventoryBody) => api(inventoriesApi.create, { params: { projectId }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteWorkspace(projectId: number) {
  const invalidate = useInvalidateInventories(projectId);
  return useMutation({
    mutationFn: (inventoryId: number) => api(inventoriesApi.remove, { params: { projectId, inventoryId } }),
    onSuccess: invalidate,
  });
}

export function useCreateAlias(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TerraformAliasBody) =>
      api(terraformApi.createAlias, { params: { projectId, inventoryId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aliasesQuery(projectId, inventoryId).queryKey }),
  });
}

export function useDeleteAlias(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (aliasId: number) => api(terraformApi.removeAlias, { params: { projectId, inventoryId, aliasId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aliasesQuery(projectId, inventoryId).queryKey }),
  });
}

export function useDeleteState(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (stateId: number) => api(terraformApi.removeState, { params: { projectId, inventoryId, stateId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...terraformKey(projectId, inventoryId), 'states'] }),
  });
}
