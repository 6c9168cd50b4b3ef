import { z } from 'zod';
import { resourceEndpoints } from './endpoint.ts';
import { Id, OptionalId, ProjectParams, QueryId, SortOrder, resourceBodyFields } from './common.ts';
import { ResourceRefs } from './refs.ts';

export const InventoryType = z.enum(['static', 'static-yaml', 'file', 'terraform-workspace', 'tofu-workspace'], {
  error: 'Type is required',
});
export type InventoryType = z.infer<typeof InventoryType>;

export const INVALID_INVENTORY_PATH_MESSAGE = 'Invalid inventory file pathname. Must be: path/to/inventory.';

/** A file inventory names a path inside the repository; it may not be absolute or climb out of it. */
export function isSafeRepositoryPath(value: string): boolean {
  if (value.startsWith('/') || value.includes('\\') || value.includes('\0')) return false;
  return value.split('/').every((part) => part !== '..') && value.trim() !== '';
}

export const Inventory = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  type: InventoryType,
  inventory: z.string(),
  ssh_key_id: Id.nullable(),
  become_key_id: Id.nullable(),
  repository_id: Id.nullable(),
  template_id: Id.nullable(),
  holder_id: Id.nullable(),
  /** Semaphore's runner tag of an inventory: Gantry places tasks without tags. */
  runner_tag: z.null(),
});
export type Inventory = z.infer<typeof Inventory>;

export const InventoryBody = z
  .object({
    ...resourceBodyFields,
    type: InventoryType,
    inventory: z
      .string()
      .max(1024 * 1024)
      .optional()
      .default(''),
    ssh_key_id: OptionalId,
    become_key_id: OptionalId,
    repository_id: OptionalId,
    template_id: OptionalId,
  })
  .superRefine((inv, ctx) => {
    const isWorkspace = inv.type === 'terraform-workspace' || inv.type === 'tofu-workspace';
    if (!isWorkspace && !inv.ssh_key_id)
      ctx.addIssue({ code: 'custom', path: ['ssh_key_id'], message: 'User credentials are required' });
    if (inv.type === 'file') {
      if (!inv.inventory.trim()) ctx.addIssue({ code: 'custom', path: ['inventory'], message: 'Path is required' });
      else if (!isSafeRepositoryPath(inv.inventory.trim()))
        ctx.addIssue({ code: 'custom', path: ['inventory'], message: INVALID_INVENTORY_PATH_MESSAGE });
    }
    if (isWorkspace && !inv.inventory.trim())
      ctx.addIssue({ code: 'custom', path: ['inventory'], message: 'Workspace name is required' });
  });
export type InventoryBody = z.input<typeof InventoryBody>;

/**
 * The fields of a checked inventory body as they are saved: a file inventory's path trimmed, a repository only
 * for a file inventory, null for a key left out. The form sends them so; the server stores them so whoever sends.
 */
export function normalizeInventoryFields(body: z.output<typeof InventoryBody>) {
  return {
    name: body.name,
    type: body.type,
    inventory: body.type === 'file' ? body.inventory.trim() : body.inventory,
    ssh_key_id: body.ssh_key_id ?? null,
    become_key_id: body.become_key_id ?? null,
    repository_id: body.type === 'file' ? (body.repository_id ?? null) : null,
  };
}

const ListQuery = z.object({
  sort: z.enum(['name']).catch('name').optional(),
  order: SortOrder.optional(),
  app: z.string().max(64).optional(),
  template_id: QueryId.optional(),
});

export const inventoriesApi = resourceEndpoints({
  path: '/api/project/:projectId/inventory',
  params: ProjectParams,
  id: 'inventoryId',
  query: ListQuery,
  body: InventoryBody,
  item: Inventory,
  refs: ResourceRefs,
});
