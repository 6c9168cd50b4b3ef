import { inventoriesApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';
import { inventoriesQuery, resourceKeys } from '../../../lib/project-resources.ts';

const inventories = defineProjectCollection({
  section: 'inventories',
  endpoints: inventoriesApi,
  idParam: 'inventoryId',
  query: inventoriesQuery,
  // Every list of inventories, whichever app it is filtered by.
  refresh: (projectId) => [resourceKeys.inventories(projectId)],
});

export const useSaveInventory = inventories.useSave;

/** Inventories as their list page knows them. */
export const inventoriesResource = inventories.resource;
