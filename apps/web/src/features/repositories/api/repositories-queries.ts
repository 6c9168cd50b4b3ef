import { repositoriesApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';

const repositories = defineProjectCollection('repositories', repositoriesApi, 'repositoryId');

export const useSaveRepository = repositories.useSave;

/** Repositories as their list page knows them. */
export const repositoriesResource = repositories.resource;
