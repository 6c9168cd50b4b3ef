import { keysApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { keysQuery, resourceKeys } from '../../../lib/project-resources.ts';

const keys = defineProjectCollection({
  section: 'keys',
  endpoints: keysApi,
  idParam: 'keyId',
  query: keysQuery,
  refresh: (projectId) => [resourceKeys.keys(projectId)],
});

export const useSaveKey = keys.useSave;

/** Keys as their list page knows them. */
export const keysResource = keys.resource;
