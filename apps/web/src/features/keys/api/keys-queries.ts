import { keysApi } from '@gantry/contract';
import { defineProjectCollection } from '../../../lib/project-collection.ts';

const keys = defineProjectCollection('keys', keysApi, 'keyId');

export const useSaveKey = keys.useSave;

/** Keys as their list page knows them. */
export const keysResource = keys.resource;
