import { createHmac } from 'node:crypto';
import { ErrorCode, isTaskActive, parseJsonObject } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { describeUnstorableText } from '../../db/storable-text.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../errors.ts';
import { generateAlias, readBasicCredentials } from '../../http/public-credentials.ts';
import { hashSecret, isSameSecret } from '../../secrets/secret-hash.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import type { KeysService } from '../keys/keys.service.ts';
import type { TerraformRepository } from './terraform.repository.ts';
import type { TerraformAliasRow } from './terraform.table.ts';
import { backendAddress } from './terraform.service.ts';

/** What the backend answers: a status and, for states and lock conflicts, a raw JSON body. */
export interface BackendReply {
  status: number;
  body?: string;
}

interface Target {
  projectId: number;
  inventoryId: number;
  /** The task whose alias was used, so the states it writes name it. */
  taskId: number | null;
}

/** How a process on this machine reaches the server when no public URL is configured. */
export function localServerUrl(host: string, port: number): string {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const name = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

const LOCK_INFO_REQUIRED = 'The lock info must be a JSON object with an ID';

/**
 * Terraform's lock info carries the lock's ID; nothing else of it matters to the server. An ID the
 * store cannot keep as it is (a NUL, half of a surrogate pair, both possible behind a JSON escape)
 * is refused: its holder could never name it again.
 */
function readLockId(text: string): string {
  let value: unknown;
  try {
    value = (JSON.parse(text) as { ID?: unknown }).ID;
  } catch {
    throw badRequest(LOCK_INFO_REQUIRED);
  }
  if (typeof value !== 'string' || value === '' || value.length > 255) throw badRequest(LOCK_INFO_REQUIRED);
  const problem = describeUnstorableText(value, 'The lock ID');
  if (problem) throw badRequest(problem);
  return value;
}

const INVALID_CREDENTIALS = 'Invalid backend credentials';

/** Aliases are made by generateAlias (base64url); anything else is no alias, and is not looked up. */
const ALIAS_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

interface BackendDeps {
  terraform: TerraformRepository;
  keys: KeysService;
  clock: Clock;
  /** Wrong credentials, counted per alias and address like failed sign-ins: a key's password cannot be guessed online. */
  throttle: LoginThrottle;
  /** The secret a task's backend password is derived from, so that handing its job out again gives the same one. */
  taskPasswordKey: Buffer;
  /** Where processes this server starts reach it. */
  internalUrl: string;
}

/**
 * The HTTP state backend terraform and OpenTofu talk to (backend "http"): state per workspace
 * inventory with history, and a real lock, shared by every alias of the workspace.
 */
export function createTerraformBackendService(deps: BackendDeps) {
  const { terraform, clock } = deps;

  async function checkCredentials(row: TerraformAliasRow, username: string, password: string): Promise<boolean> {
    if (row.task_id !== null) {
      // A task's alias works only while that task is still going.
      const status = await terraform.findTaskStatus(row.task_id);
      const active = status !== undefined && isTaskActive(status);
      return (
        active &&
        row.task_secret_hash !== null &&
        isSameSecret(username, `task-${row.task_id}`) &&
        isSameSecret(hashSecret(password), row.task_secret_hash)
      );
    }
    if (row.auth_key_id === null) return false;
    const key = await deps.keys.getMaterial(row.project_id, row.auth_key_id);
    if (key.type !== 'login_password') return false;
    // Both compared, always, so the time taken does not tell which one was wrong.
    const loginOk = isSameSecret(username, key.login);
    const passwordOk = isSameSecret(password, key.password);
    return loginOk && passwordOk;
  }

  /** A task alias's password: a keyed hash of the alias, so only this server can tell it, as often as asked. */
  const taskPasswordOf = (alias: string) =>
    createHmac('sha256', deps.taskPasswordKey).update(alias).digest('base64url');

  async function locked(target: Target, lockId: string | undefined, status: number): Promise<BackendReply | undefined> {
    const lock = await terraform.findLock(target.projectId, target.inventoryId);
    if (!lock || lock.lock_id === lockId) return undefined;
    return { status, body: lock.info };
  }

  return {
    /**
     * Finds the alias and checks HTTP Basic credentials: unknown alias 404, anything wrong 401, and 429
     * once an address has failed too often on the alias.
     */
    async authenticate(alias: string, authorization: string | undefined, address: string): Promise<Target> {
      const row = ALIAS_PATTERN.test(alias) ? await terraform.findByAlias(alias) : undefined;
      if (!row) throw notFound('Alias');
      const credentials = readBasicCredentials(authorization);
      if (!credentials) throw unauthorized('Backend credentials are required');
      const attempt = await deps.throttle.reserve({ account: `terraform backend ${alias}`, address });
      if (!(await checkCredentials(row, credentials.login, credentials.password)))
        throw unauthorized(INVALID_CREDENTIALS);
      await attempt.release();
      return { projectId: row.project_id, inventoryId: row.inventory_id, taskId: row.task_id };
    },

    async getState(target: Target): Promise<BackendReply> {
      const latest = await terraform.findState(target.projectId, target.inventoryId, 'latest');
      // Terraform reads 404 (like 204) as "no state yet".
      return latest ? { status: 200, body: latest.state } : { status: 404 };
    },

    async putState(target: Target, body: string, lockId: string | undefined): Promise<BackendReply> {
      if (parseJsonObject(body) === undefined) throw badRequest('The state must be a JSON object');
      const conflict = await locked(target, lockId, 423);
      if (conflict) return conflict;
      await terraform.insertState({
        project_id: target.projectId,
        inventory_id: target.inventoryId,
        task_id: target.taskId,
        state: body,
        created: toTimestamp(clock.now()),
      });
      return { status: 200 };
    },

    async lock(target: Target, body: string): Promise<BackendReply> {
      const lockId = readLockId(body);
      const row = {
        inventory_id: target.inventoryId,
        project_id: target.projectId,
        lock_id: lockId,
        info: body,
        created: toTimestamp(clock.now()),
      };
      if (await terraform.tryLock(row)) return { status: 200 };
      const current = await terraform.findLock(target.projectId, target.inventoryId);
      if (!current) throw new AppError(409, ErrorCode.conflict, 'The lock changed hands; try again');
      // Terraform shows the holder's lock info (who, what operation, since when) from this body.
      return { status: 423, body: current.info };
    },

    /** Releases the lock held under the ID in the body; an empty body is terraform's force-unlock. */
    async unlock(target: Target, body: string): Promise<BackendReply> {
      if (body.trim() === '') {
        await terraform.unlock(target.projectId, target.inventoryId, undefined);
        return { status: 200 };
      }
      const lockId = readLockId(body);
      const conflict = await locked(target, lockId, 409);
      if (conflict) return conflict;
      await terraform.unlock(target.projectId, target.inventoryId, lockId);
      return { status: 200 };
    },

    /** Terraform deletes a state when its workspace goes away: the whole history of the workspace goes. */
    async deleteState(target: Target, lockId: string | undefined): Promise<BackendReply> {
      const conflict = await locked(target, lockId, 423);
      if (conflict) return conflict;
      await terraform.deleteAllStates(target.projectId, target.inventoryId);
      return { status: 200 };
    },

    /**
     * Gives a starting task its own alias of the workspace, valid while the task runs, and the
     * TF_HTTP_* variables that point a `backend "http" {}` block at it. A runner is handed a job again
     * until it starts it: each time the task gets the same alias and password, not one more.
     */
    async issueTaskBackend(
      task: { id: number; project_id: number },
      inventoryId: number,
    ): Promise<{ env: Record<string, string>; password: string }> {
      const issued = await terraform.findTaskAlias(task.project_id, inventoryId, task.id);
      const alias = issued?.alias ?? generateAlias();
      const password = taskPasswordOf(alias);
      if (!issued) {
        await terraform.insertAlias({
          project_id: task.project_id,
          inventory_id: inventoryId,
          alias,
          auth_key_id: null,
          task_id: task.id,
          task_secret_hash: hashSecret(password),
          created: toTimestamp(clock.now()),
        });
      }
      const address = backendAddress(deps.internalUrl, alias);
      return {
        password,
        env: {
          TF_HTTP_ADDRESS: address,
          TF_HTTP_LOCK_ADDRESS: address,
          TF_HTTP_UNLOCK_ADDRESS: address,
          TF_HTTP_LOCK_METHOD: 'LOCK',
          TF_HTTP_UNLOCK_METHOD: 'UNLOCK',
          TF_HTTP_USERNAME: `task-${task.id}`,
          TF_HTTP_PASSWORD: password,
        },
      };
    },
  };
}

export type TerraformBackendService = ReturnType<typeof createTerraformBackendService>;
