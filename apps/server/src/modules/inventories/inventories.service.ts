import type { Inventory, InventoryBody, InventoryType } from '@gantry/contract';
import { normalizeInventoryFields } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { badRequest } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import {
  assertBodyInProject,
  makeBodyOperations,
  type ResourceRefsLookup,
  usedResource,
} from '../refs/project-resource.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import type { InventoriesRepository } from './inventories.repository.ts';
import type { InventoryRow } from './inventories.table.ts';
import { columnsOf } from '../../db/row-fields.ts';

type InventoryInput = z.output<typeof InventoryBody>;

/** Which inventory types each app can use. */
const TYPES_BY_APP: Record<string, InventoryType[]> = {
  ansible: ['static', 'static-yaml', 'file'],
  terraform: ['terraform-workspace'],
  tofu: ['tofu-workspace'],
};

function toInventory(row: InventoryRow): Inventory {
  return {
    ...columnsOf(row, [
      'id',
      'project_id',
      'name',
      'type',
      'inventory',
      'ssh_key_id',
      'become_key_id',
      'repository_id',
      'template_id',
    ]),
    holder_id: row.template_id,
    runner_tag: null,
  };
}

interface InventoriesDeps {
  inventories: InventoriesRepository;
  keys: KeysService;
  repositories: RepositoriesService;
  templateExists(projectId: number, templateId: number): Promise<boolean>;
  refs: ResourceRefsLookup;
  events: EventsService;
  clock: Clock;
}

export function createInventoriesService(deps: InventoriesDeps) {
  const { inventories, keys, repositories, refs, events, clock } = deps;

  const resource = usedResource({
    label: 'Inventory',
    objectType: 'inventory',
    rows: inventories,
    events,
    usedBy: refs.forInventory,
  });

  async function fieldsOf(projectId: number, body: InventoryInput) {
    assertBodyInProject(projectId, body);
    if (body.ssh_key_id) await keys.assertLoginKey(projectId, body.ssh_key_id, 'User credentials key');
    if (body.become_key_id) await keys.assertLoginKey(projectId, body.become_key_id, 'Become key');
    if (body.repository_id) await repositories.assertExists(projectId, body.repository_id);
    if (body.template_id && !(await deps.templateExists(projectId, body.template_id)))
      throw badRequest('Template not found in this project');
    return { ...normalizeInventoryFields(body), template_id: body.template_id ?? null };
  }

  return {
    async list(
      projectId: number,
      order: 'asc' | 'desc',
      filter: { app?: string | undefined; templateId?: number | undefined },
    ): Promise<Inventory[]> {
      const types = filter.app
        ? ((Object.hasOwn(TYPES_BY_APP, filter.app) ? TYPES_BY_APP[filter.app] : undefined) ?? [])
        : undefined;
      // An app without inventories (bash, python...) lists none; an empty IN list is an SQL error on PostgreSQL and MySQL.
      if (types?.length === 0) return [];
      const rows = await inventories.list(projectId, order, {
        ...(types ? { types } : {}),
        ...(filter.templateId ? { templateId: filter.templateId } : {}),
      });
      return rows.map(toInventory);
    },
    ...makeBodyOperations(resource, { fieldsOf, toWire: toInventory, clock }),
    assertExists: resource.assertExists,
    refs: resource.refs,
    remove: resource.remove,
  };
}

export type InventoriesService = ReturnType<typeof createInventoriesService>;
