import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { DateTime, Id, NoContent, PathId, queryInteger, wireInteger } from './common.ts';
import { TaskStatus } from './task-statuses.ts';

/** Apps whose templates keep their state in workspace inventories. */
export const TERRAFORM_APPS = ['terraform', 'tofu'] as const;
export const isTerraformApp = (app: string) => (TERRAFORM_APPS as readonly string[]).includes(app);
/** The inventory type that holds a workspace of each terraform-like app. */
export const workspaceTypeOf = (app: string): 'terraform-workspace' | 'tofu-workspace' =>
  app === 'tofu' ? 'tofu-workspace' : 'terraform-workspace';
export const isWorkspaceType = (type: string) => type === 'terraform-workspace' || type === 'tofu-workspace';

/** Path of the built-in HTTP state backend; terraform's address, lock_address and unlock_address. */
export const TERRAFORM_BACKEND_PATH = '/api/terraform';
/** Rows of the state table per page. */
export const TERRAFORM_STATES_PER_PAGE = 20;
export const NO_STATE_MESSAGE = 'No state available.';

export const TerraformAlias = z.object({
  id: Id,
  project_id: Id,
  inventory_id: Id,
  auth_key_id: Id.nullable(),
  alias: z.string(),
  /** The backend address: absolute when the server knows its public URL (web_host), else a path. */
  url: z.string(),
});
export type TerraformAlias = z.infer<typeof TerraformAlias>;

export const TerraformAliasBody = z.object({
  auth_key_id: wireInteger({ min: 1, message: 'Key is required' }).nullable().optional(),
});
export type TerraformAliasBody = z.input<typeof TerraformAliasBody>;

export const TerraformState = z.object({
  id: Id,
  project_id: Id,
  inventory_id: Id,
  task_id: Id.nullable(),
  /** Status of the task that wrote the state, if a task did. */
  status: TaskStatus.nullable(),
  created: DateTime,
  /** The raw state JSON; lists leave it out. */
  state: z.string().optional(),
});
export type TerraformState = z.infer<typeof TerraformState>;

/** Who holds a workspace's lock, from the lock info terraform sent. */
export const TerraformLock = z.object({
  id: z.string(),
  who: z.string(),
  operation: z.string(),
  created: DateTime,
});
export type TerraformLock = z.infer<typeof TerraformLock>;

const InventoryParams = z.object({ projectId: PathId, inventoryId: PathId });
const AliasParams = InventoryParams.extend({ aliasId: PathId });
const StateParams = InventoryParams.extend({ stateId: PathId });
const StatesQuery = z.object({
  limit: queryInteger({ min: 1, max: 1000 }).optional(),
  offset: queryInteger().optional(),
});
const WorkspaceParams = z.object({ projectId: PathId, templateId: PathId, inventoryId: PathId });

const base = '/api/project/:projectId/inventory/:inventoryId/terraform';
const workspaceBase = '/api/project/:projectId/templates/:templateId/inventory/:inventoryId';

export const terraformApi = {
  listAliases: endpoint({
    method: 'GET',
    path: `${base}/aliases`,
    params: InventoryParams,
    response: z.array(TerraformAlias),
  }),
  createAlias: endpoint({
    method: 'POST',
    path: `${base}/aliases`,
    params: InventoryParams,
    body: TerraformAliasBody,
    response: TerraformAlias,
    status: 201,
  }),
  getAlias: endpoint({
    method: 'GET',
    path: `${base}/aliases/:aliasId`,
    params: AliasParams,
    response: TerraformAlias,
  }),
  updateAlias: endpoint({
    method: 'PUT',
    path: `${base}/aliases/:aliasId`,
    params: AliasParams,
    body: TerraformAliasBody,
    response: NoContent,
    status: 204,
  }),
  removeAlias: endpoint({
    method: 'DELETE',
    path: `${base}/aliases/:aliasId`,
    params: AliasParams,
    response: NoContent,
    status: 204,
  }),
  /** Newest first, without the state text; ?limit=&offset= page through long histories. */
  listStates: endpoint({
    method: 'GET',
    path: `${base}/states`,
    params: InventoryParams,
    query: StatesQuery,
    response: z.array(TerraformState),
  }),
  latestState: endpoint({
    method: 'GET',
    path: `${base}/states/latest`,
    params: InventoryParams,
    response: TerraformState,
  }),
  getState: endpoint({ method: 'GET', path: `${base}/states/:stateId`, params: StateParams, response: TerraformState }),
  /** The workspace's lock, null when it is free. */
  getLock: endpoint({
    method: 'GET',
    path: `${base}/lock`,
    params: InventoryParams,
    response: TerraformLock.nullable(),
  }),
  /** Releases a lock left behind (a killed run), like terraform force-unlock. */
  removeLock: endpoint({
    method: 'DELETE',
    path: `${base}/lock`,
    params: InventoryParams,
    response: NoContent,
    status: 204,
  }),
  removeState: endpoint({
    method: 'DELETE',
    path: `${base}/states/:stateId`,
    params: StateParams,
    response: NoContent,
    status: 204,
  }),
};

export const workspacesApi = {
  attach: endpoint({
    method: 'POST',
    path: `${workspaceBase}/attach`,
    params: WorkspaceParams,
    response: NoContent,
    status: 204,
  }),
  detach: endpoint({
    method: 'POST',
    path: `${workspaceBase}/detach`,
    params: WorkspaceParams,
    response: NoContent,
    status: 204,
  }),
  setDefault: endpoint({
    method: 'POST',
    path: `${workspaceBase}/set_default`,
    params: WorkspaceParams,
    response: NoContent,
    status: 204,
  }),
};
