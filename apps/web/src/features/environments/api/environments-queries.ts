import { queryOptions } from '@tanstack/react-query';
import { environmentsApi } from '@gantry/contract';
import { api } from '../../../lib/api-client.ts';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { resourceKeys } from '../../../lib/project-resources.ts';

/** One variable group with the names and types of its secrets. */
export const environmentQuery = (projectId: number, environmentId: number) =>
  queryOptions({
    queryKey: [...resourceKeys.environments(projectId), environmentId],
    queryFn: ({ signal }) => api(environmentsApi.get, { params: { projectId, environmentId }, signal }),
    staleTime: 0,
  });

const environments = defineProjectCollection('environments', environmentsApi, 'environmentId');

export const useSaveEnvironment = environments.useSave;

/** Environments as their list page knows them. */
export const environmentsResource = environments.resource;
