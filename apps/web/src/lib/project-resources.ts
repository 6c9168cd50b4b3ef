import { queryOptions } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  appsApi,
  environmentsApi,
  inventoriesApi,
  keysApi,
  repositoriesApi,
  schedulesApi,
  templatesApi,
  workflowsApi,
  viewsApi,
} from '@gantry/contract';
import type { Endpoint } from '@gantry/contract';
import { api, request } from './api-client.ts';

/**
 * The lists of a project's resources. Several screens need the same lists (the template form picks
 * keys, inventories, repositories...), so they share these queries and their cache entries.
 */
export const resourceKeys = {
  all: (projectId: number) => ['projects', projectId] as const,
  keys: (projectId: number) => ['projects', projectId, 'keys'] as const,
  repositories: (projectId: number) => ['projects', projectId, 'repositories'] as const,
  inventories: (projectId: number) => ['projects', projectId, 'inventories'] as const,
  environments: (projectId: number) => ['projects', projectId, 'environments'] as const,
  views: (projectId: number) => ['projects', projectId, 'views'] as const,
  templates: (projectId: number) => ['projects', projectId, 'templates'] as const,
  schedules: (projectId: number) => ['projects', projectId, 'schedules'] as const,
};

/** A project's whole list: GET on the list's endpoint of the project, cached under its key. */
const projectListQuery =
  <TKey extends QueryKey, E extends Endpoint<z.ZodType<unknown, { projectId: unknown }>>>(
    key: (projectId: number) => TKey,
    endpoint: E,
  ) =>
  (projectId: number) =>
    queryOptions({
      queryKey: key(projectId),
      queryFn: ({ signal }) => request(endpoint, { params: { projectId }, signal }),
    });

export const keysQuery = projectListQuery(resourceKeys.keys, keysApi.list);

export const repositoriesQuery = projectListQuery(resourceKeys.repositories, repositoriesApi.list);

/** All inventories, or those an app can use (?app=ansible). */
export const inventoriesQuery = (projectId: number, app?: string) =>
  queryOptions({
    queryKey: [...resourceKeys.inventories(projectId), app ?? ''] as const,
    queryFn: ({ signal }) => api(inventoriesApi.list, { params: { projectId }, query: app ? { app } : {}, signal }),
  });

export const environmentsQuery = projectListQuery(resourceKeys.environments, environmentsApi.list);

export const schedulesQuery = projectListQuery(resourceKeys.schedules, schedulesApi.list);

/** Views in their display order. */
export const viewsQuery = (projectId: number) =>
  queryOptions({
    queryKey: resourceKeys.views(projectId),
    queryFn: async ({ signal }) => {
      const views = await api(viewsApi.list, { params: { projectId }, signal });
      return [...views].sort((a, b) => a.position - b.position || a.id - b.id);
    },
  });

/** The project's workflows, which a schedule or an integration may start instead of a template. */
export const workflowChoicesQuery = (projectId: number) =>
  queryOptions({
    queryKey: ['projects', projectId, 'workflows'] as const,
    queryFn: ({ signal }) => api(workflowsApi.list, { params: { projectId }, signal }),
  });

/** All templates of the project, or those of one view. */
export const templatesQuery = (projectId: number, viewId?: number) =>
  queryOptions({
    queryKey: [...resourceKeys.templates(projectId), 'list', viewId ?? 0] as const,
    queryFn: ({ signal }) =>
      viewId
        ? api(templatesApi.listByView, { params: { projectId, viewId }, signal })
        : api(templatesApi.list, { params: { projectId }, signal }),
  });

export const templateQuery = (projectId: number, templateId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.templates(projectId), 'one', templateId] as const,
    queryFn: ({ signal }) => api(templatesApi.get, { params: { projectId, templateId }, signal }),
  });

/** The server's apps, highest priority first. */
export const appsQuery = queryOptions({
  queryKey: ['apps'],
  queryFn: async ({ signal }) => {
    const apps = await api(appsApi.list, { signal });
    return [...apps].sort((a, b) => b.priority - a.priority || a.title.localeCompare(b.title));
  },
});
