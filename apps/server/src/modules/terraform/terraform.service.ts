import type { TerraformAlias, TerraformAliasBody, TerraformLock, TerraformState } from '@gantry/contract';
import { ErrorCode, NO_STATE_MESSAGE, TERRAFORM_BACKEND_PATH, isWorkspaceType } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { generateAlias } from '../../http/public-credentials.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { StateSummaryRow, TerraformRepository } from './terraform.repository.ts';
import type { TerraformAliasRow, TerraformLockRow } from './terraform.table.ts';
import { columnsOf } from '../../db/row-fields.ts';

type AliasInput = z.output<typeof TerraformAliasBody>;

/** Where terraform reaches this server: the configured public URL, else a path for the caller to resolve. */
export const backendAddress = (publicUrl: string, alias: string) =>
  `${publicUrl.replace(/\/$/, '')}${TERRAFORM_BACKEND_PATH}/${alias}`;

function toAlias(row: TerraformAliasRow, publicUrl: string): TerraformAlias {
  return {
    ...columnsOf(row, ['id', 'project_id', 'inventory_id', 'auth_key_id', 'alias']),
    url: backendAddress(publicUrl, row.alias),
  };
}

function toState(row: StateSummaryRow & { state?: string }): TerraformState {
  return {
    ...columnsOf(row, ['id', 'project_id', 'inventory_id', 'task_id', 'status', 'created']),
    ...(row.state !== undefined ? { state: row.state } : {}),
  };
}

function toLock(row: TerraformLockRow): TerraformLock {
  let info: Record<string, unknown> = {};
  try {
    info = JSON.parse(row.info) as Record<string, unknown>;
  } catch {
    // The backend only stores lock info that parsed; an unreadable one still names its ID.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { id: row.lock_id, who: text(info.Who), operation: text(info.Operation), created: row.created };
}

interface TerraformDeps {
  terraform: TerraformRepository;
  inventories: InventoriesService;
  keys: KeysService;
  events: EventsService;
  clock: Clock;
  /** The server's public URL (web_host), '' when unknown. */
  publicUrl: string;
}

/** Aliases and the state history of workspace inventories, as the project API shows them. */
export function createTerraformService(deps: TerraformDeps) {
  const { terraform, events, clock } = deps;

  async function getWorkspace(projectId: number, inventoryId: number) {
    const inventory = await deps.inventories.get(projectId, inventoryId);
    if (!isWorkspaceType(inventory.type)) throw badRequest('The inventory is not a Terraform/OpenTofu workspace');
    return inventory;
  }

  async function assertLoginPasswordKey(projectId: number, keyId: number | null | undefined): Promise<void> {
    if (!keyId) return;
    const key = await deps.keys.assertExists(projectId, keyId, 'Access key');
    if (key.type !== 'login_password') throw badRequest('The backend credentials must be a login with password key');
  }

  async function getAliasRow(projectId: number, inventoryId: number, aliasId: number): Promise<TerraformAliasRow> {
    const row = await terraform.findAlias(projectId, inventoryId, aliasId);
    if (!row) throw notFound('Alias');
    return row;
  }

  const record = (actor: UserRow, projectId: number, inventoryId: number, description: string) =>
    events.record({ userId: actor.id, projectId, objectType: 'inventory', objectId: inventoryId, description });

  return {
    async listAliases(projectId: number, inventoryId: number): Promise<TerraformAlias[]> {
      await getWorkspace(projectId, inventoryId);
      return (await terraform.listAliases(projectId, inventoryId)).map((row) => toAlias(row, deps.publicUrl));
    },
    async getAlias(projectId: number, inventoryId: number, aliasId: number): Promise<TerraformAlias> {
      return toAlias(await getAliasRow(projectId, inventoryId, aliasId), deps.publicUrl);
    },
    async createAlias(
      actor: UserRow,
      projectId: number,
      inventoryId: number,
      body: AliasInput,
    ): Promise<TerraformAlias> {
      const inventory = await getWorkspace(projectId, inventoryId);
      await assertLoginPasswordKey(projectId, body.auth_key_id);
      const row = {
        project_id: projectId,
        inventory_id: inventoryId,
        alias: generateAlias(),
        auth_key_id: body.auth_key_id ?? null,
        task_id: null,
        task_secret_hash: null,
        created: toTimestamp(clock.now()),
      };
      const id = await terraform.insertAlias(row);
      await record(actor, projectId, inventoryId, `Terraform backend alias added to workspace ${inventory.name}`);
      return toAlias({ ...row, id }, deps.publicUrl);
    },
    async updateAlias(
      actor: UserRow,
      projectId: number,
      inventoryId: number,
      aliasId: number,
      body: AliasInput,
    ): Promise<void> {
      await getAliasRow(projectId, inventoryId, aliasId);
      await assertLoginPasswordKey(projectId, body.auth_key_id);
      await terraform.updateAliasKey(projectId, aliasId, body.auth_key_id ?? null);
      await record(actor, projectId, inventoryId, 'Terraform backend alias updated');
    },
    async removeAlias(actor: UserRow, projectId: number, inventoryId: number, aliasId: number): Promise<void> {
      await getAliasRow(projectId, inventoryId, aliasId);
      await terraform.deleteAlias(projectId, aliasId);
      await record(actor, projectId, inventoryId, 'Terraform backend alias deleted');
    },

    async listStates(
      projectId: number,
      inventoryId: number,
      page: { limit?: number | undefined; offset?: number | undefined },
    ): Promise<TerraformState[]> {
      await getWorkspace(projectId, inventoryId);
      return (await terraform.listStates(projectId, inventoryId, page.limit, page.offset ?? 0)).map(toState);
    },
    async getState(projectId: number, inventoryId: number, stateId: number | 'latest'): Promise<TerraformState> {
      await getWorkspace(projectId, inventoryId);
      const row = await terraform.findState(projectId, inventoryId, stateId);
      if (!row) throw new AppError(404, ErrorCode.notFound, NO_STATE_MESSAGE);
      return toState(row);
    },
    async getLock(projectId: number, inventoryId: number): Promise<TerraformLock | null> {
      await getWorkspace(projectId, inventoryId);
      const row = await terraform.findLock(projectId, inventoryId);
      return row ? toLock(row) : null;
    },
    async removeLock(actor: UserRow, projectId: number, inventoryId: number): Promise<void> {
      const inventory = await getWorkspace(projectId, inventoryId);
      if (await terraform.unlock(projectId, inventoryId, undefined))
        await record(actor, projectId, inventoryId, `Terraform state lock of workspace ${inventory.name} released`);
    },
    async removeState(actor: UserRow, projectId: number, inventoryId: number, stateId: number): Promise<void> {
      await getWorkspace(projectId, inventoryId);
      if (!(await terraform.deleteState(projectId, inventoryId, stateId)))
        throw new AppError(404, ErrorCode.notFound, NO_STATE_MESSAGE);
      await record(actor, projectId, inventoryId, `Terraform state #${stateId} deleted`);
    },
  };
}

export type TerraformService = ReturnType<typeof createTerraformService>;
