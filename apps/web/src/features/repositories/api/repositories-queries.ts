import { repositoriesApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { repositoriesQuery, resourceKeys } from '../../../lib/project-resources.ts';

const repositories = defineProjectCollection({
  section: 'repositories',
  endpoints: repositoriesApi,
  idParam: 'repositoryId',
  query: repositoriesQuery,
  refresh: (projectId) => [resourceKeys.repositories(projectId)],
});

export const useSaveRepository = repositories.useSave;

/** Repositories as their list page knows them. */
export const repositoriesResource = repositories.resource;
