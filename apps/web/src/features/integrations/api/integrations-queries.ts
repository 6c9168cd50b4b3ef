import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { integrationsApi } from '@gantry/contract';
import type {
  Integration,
  IntegrationBody,
  IntegrationExtractValueBody,
  IntegrationMatcherBody,
  ResourceRefs,
} from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation, useSaveMutation } from '../../../lib/mutations.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

const integrationKeys = {
  all: (projectId: number) => [...resourceKeys.all(projectId), 'integrations'] as const,
  list: (projectId: number) => [...integrationKeys.all(projectId), 'list'] as const,
  one: (projectId: number, integrationId: number) => [...integrationKeys.all(projectId), 'one', integrationId] as const,
  aliases: (projectId: number, integrationId: number | null) =>
    [...integrationKeys.all(projectId), 'aliases', integrationId ?? 'project'] as const,
  values: (projectId: number, integrationId: number) =>
    [...integrationKeys.one(projectId, integrationId), 'values'] as const,
  matchers: (projectId: number, integrationId: number) =>
    [...integrationKeys.one(projectId, integrationId), 'matchers'] as const,
};

export const integrationsQuery = (projectId: number) =>
  queryOptions({
    queryKey: integrationKeys.list(projectId),
    queryFn: ({ signal }) => api(integrationsApi.list, { params: { projectId }, signal }),
  });

export const integrationQuery = (projectId: number, integrationId: number) =>
  queryOptions({
    queryKey: integrationKeys.one(projectId, integrationId),
    queryFn: ({ signal }) => api(integrationsApi.get, { params: { projectId, integrationId }, signal }),
  });

/** An integration's aliases, or with null the project-wide ones that reach every searchable integration. */
export const aliasesQuery = (projectId: number, integrationId: number | null) =>
  queryOptions({
    queryKey: integrationKeys.aliases(projectId, integrationId),
    queryFn: ({ signal }) =>
      integrationId === null
        ? api(integrationsApi.listProjectAliases, { params: { projectId }, signal })
        : api(integrationsApi.listAliases, { params: { projectId, integrationId }, signal }),
  });

export const extractValuesQuery = (projectId: number, integrationId: number) =>
  queryOptions({
    queryKey: integrationKeys.values(projectId, integrationId),
    queryFn: ({ signal }) => api(integrationsApi.listValues, { params: { projectId, integrationId }, signal }),
  });

export const matchersQuery = (projectId: number, integrationId: number) =>
  queryOptions({
    queryKey: integrationKeys.matchers(projectId, integrationId),
    queryFn: ({ signal }) => api(integrationsApi.listMatchers, { params: { projectId, integrationId }, signal }),
  });

export function useSaveIntegration(projectId: number) {
  return useSaveMutation<IntegrationBody>(
    [integrationKeys.all(projectId)],
    (body) => api(integrationsApi.create, { params: { projectId }, body }),
    (integrationId, body) => api(integrationsApi.update, { params: { projectId, integrationId }, body }),
  );
}

/** The "global alias" switch: whether project-wide aliases reach this integration. Saves at once. */
export function useSetSearchable(projectId: number) {
  const queryClient = useQueryClient();
  return useRefreshingMutation(
    [integrationKeys.all(projectId)],
    ({ integration, searchable }: { integration: Integration; searchable: boolean }) =>
      api(integrationsApi.update, {
        params: { projectId, integrationId: integration.id },
        body: { ...integration, searchable },
      }),
    {
      alsoAfterFailure: true,
      onMutate: ({ integration, searchable }) => {
        queryClient.setQueryData<Integration>(integrationKeys.one(projectId, integration.id), (current) =>
          current ? { ...current, searchable } : current,
        );
      },
    },
  );
}

/**
 * Asks what uses an integration before it is deleted. Its matchers and extracted values are its own
 * parts and go with it, so nothing outside it can block the delete.
 */
export async function loadIntegrationRefs(projectId: number, integrationId: number): Promise<ResourceRefs> {
  await api(integrationsApi.refs, { params: { projectId, integrationId } });
  return { templates: [], inventories: [], repositories: [], integrations: [], schedules: [], workflows: [] };
}

export function useDeleteIntegration(projectId: number) {
  // Only the list: a deleted integration's own page must not refetch into a 404 while it closes.
  return useRefreshingMutation([integrationKeys.list(projectId)], (integrationId: number) =>
    api(integrationsApi.remove, { params: { projectId, integrationId } }),
  );
}

export function useAddAlias(projectId: number, integrationId: number | null) {
  return useRefreshingMutation([integrationKeys.all(projectId)], () =>
    integrationId === null
      ? api(integrationsApi.createProjectAlias, { params: { projectId } })
      : api(integrationsApi.createAlias, { params: { projectId, integrationId } }),
  );
}

export function useDeleteAlias(projectId: number, integrationId: number | null) {
  return useRefreshingMutation([integrationKeys.all(projectId)], (aliasId: number) =>
    integrationId === null
      ? api(integrationsApi.removeProjectAlias, { params: { projectId, aliasId } })
      : api(integrationsApi.removeAlias, { params: { projectId, integrationId, aliasId } }),
  );
}

export function useSaveExtractValue(projectId: number, integrationId: number) {
  return useSaveMutation<IntegrationExtractValueBody>(
    [integrationKeys.all(projectId)],
    (body) => api(integrationsApi.createValue, { params: { projectId, integrationId }, body }),
    (valueId, body) => api(integrationsApi.updateValue, { params: { projectId, integrationId, valueId }, body }),
  );
}

export function useDeleteExtractValue(projectId: number, integrationId: number) {
  return useRefreshingMutation([integrationKeys.all(projectId)], (valueId: number) =>
    api(integrationsApi.removeValue, { params: { projectId, integrationId, valueId } }),
  );
}

export function useSaveMatcher(projectId: number, integrationId: number) {
  return useSaveMutation<IntegrationMatcherBody>(
    [integrationKeys.all(projectId)],
    (body) => api(integrationsApi.createMatcher, { params: { projectId, integrationId }, body }),
    (matcherId, body) => api(integrationsApi.updateMatcher, { params: { projectId, integrationId, matcherId }, body }),
  );
}

export function useDeleteMatcher(projectId: number, integrationId: number) {
  return useRefreshingMutation([integrationKeys.all(projectId)], (matcherId: number) =>
    api(integrationsApi.removeMatcher, { params: { projectId, integrationId, matcherId } }),
  );
}
