import { inventoriesApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';

const inventories = defineProjectCollection('inventories', inventoriesApi, 'inventoryId');

export const useSaveInventory = inventories.useSave;

/** Inventories as their list page knows them. */
export const inventoriesResource = inventories.resource;
