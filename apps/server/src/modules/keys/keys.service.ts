import type { AccessKey, KeyBody, KeyMaterial, KeyType, ResourceRefs } from '@gantry/contract';
import { ACCESS_KEY_CONSTANT_FIELDS, isPasswordKeyType } from '@gantry/contract';
import type { z } from 'zod';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, validationFailed } from '../../errors.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { EventsService } from '../events/events.service.ts';
import { assertBodyInProject, type ResourceRefsLookup, usedResource } from '../refs/project-resource.ts';
import type { UserRow } from '../users/users.table.ts';
import type { KeysRepository } from './keys.repository.ts';
import type { AccessKeyRow } from './keys.table.ts';
import { columnsOf } from '../../db/row-fields.ts';

type KeyInput = z.output<typeof KeyBody>;

/** What a key holds once opened: the runner's material, or the single value of a `string` key. */
export type StoredKeyMaterial = KeyMaterial | { type: 'string'; value: string };

/** The password a key stands for (vault passwords, webhook secrets); undefined when it holds none. */
export function passwordOf(material: StoredKeyMaterial): string | undefined {
  if (material.type === 'login_password') return material.password;
  if (material.type === 'string') return material.value;
  return undefined;
}

function toAccessKey(row: AccessKeyRow): AccessKey {
  return {
    ...columnsOf(row, ['id', 'project_id', 'name', 'type']),
    empty: row.secret === null,
    ...ACCESS_KEY_CONSTANT_FIELDS,
  };
}

/** Checks and shapes the secret part of a key body; undefined for keys that hold none. */
function buildMaterial(body: KeyInput): StoredKeyMaterial | undefined {
  switch (body.type) {
    case 'none':
      return undefined;
    case 'ssh': {
      const privateKey = body.ssh?.private_key ?? '';
      if (!privateKey.trim()) throw validationFailed('Private key is required');
      return {
        type: 'ssh',
        login: body.ssh?.login ?? '',
        passphrase: body.ssh?.passphrase ?? '',
        private_key: privateKey,
      };
    }
    case 'login_password': {
      const password = body.login_password?.password ?? '';
      if (!password) throw validationFailed('Password is required');
      return { type: 'login_password', login: body.login_password?.login ?? '', password };
    }
    case 'string': {
      if (!body.string) throw validationFailed('Value is required');
      return { type: 'string', value: body.string };
    }
  }
}

/** Why a key in use cannot take a new type: what already uses it would refuse a key of that type (or fail its tasks). */
function explainTypeConflict(type: KeyType, used: ResourceRefs): string | undefined {
  if (type === 'string' && (used.repositories.length > 0 || used.inventories.length > 0))
    return 'The key is used to log in (by a repository or an inventory): it cannot hold a single value (type string)';
  if (!isPasswordKeyType(type) && (used.templates.length > 0 || used.integrations.length > 0))
    return 'The key is used as a password (by a template vault or an integration): its type must be login_password or string';
  return undefined;
}

interface KeysDeps {
  keys: KeysRepository;
  refs: ResourceRefsLookup;
  events: EventsService;
  secrets: SecretBox;
  clock: Clock;
}

export function createKeysService({ keys, refs, events, secrets, clock }: KeysDeps) {
  const resource = usedResource({ label: 'Access key', objectType: 'key', rows: keys, events, usedBy: refs.forKey });
  const { get: getRow } = resource;

  function open(row: AccessKeyRow): StoredKeyMaterial {
    return row.secret === null ? { type: 'none' } : (JSON.parse(secrets.open(row.secret)) as StoredKeyMaterial);
  }

  function seal(material: StoredKeyMaterial | undefined): string | null {
    return material ? secrets.seal(JSON.stringify(material)) : null;
  }

  return {
    async list(projectId: number, sort: 'name' | 'type', order: 'asc' | 'desc'): Promise<AccessKey[]> {
      return (await keys.list(projectId, sort, order)).map(toAccessKey);
    },
    async get(projectId: number, id: number): Promise<AccessKey> {
      return toAccessKey(await getRow(projectId, id));
    },
    /** Ensures a key id belongs to the project; used by every resource that points at a key. */
    assertExists: resource.assertExists,
    async create(actor: UserRow | undefined, projectId: number, body: KeyInput): Promise<AccessKey> {
      assertBodyInProject(projectId, body);
      const row = {
        project_id: projectId,
        name: body.name,
        type: body.type,
        secret: seal(buildMaterial(body)),
        created: toTimestamp(clock.now()),
      };
      return toAccessKey(await resource.create(actor, row, row.name));
    },
    update(actor: UserRow, projectId: number, id: number, body: KeyInput): Promise<void> {
      return resource.update(actor, projectId, id, body, async (current) => {
        const typeChanged = current.type !== body.type;
        if (typeChanged && body.type !== 'none' && !body.override_secret)
          throw validationFailed('A new secret is required when the type changes');
        const conflict = typeChanged ? explainTypeConflict(body.type, await refs.forKey(projectId, id)) : undefined;
        if (conflict) throw badRequest(conflict);
        const secret = body.override_secret || typeChanged ? { secret: seal(buildMaterial(body)) } : {};
        return { name: body.name, type: body.type, ...secret };
      });
    },
    refs: resource.refs,
    remove: resource.remove,
    /** The decrypted content of a key, whatever its type. */
    async getMaterial(projectId: number, id: number): Promise<StoredKeyMaterial> {
      return open(await getRow(projectId, id));
    },
    /** The material of a key used to log in (git, SSH, become); a single-value key cannot be one. */
    async getLoginMaterial(projectId: number, id: number): Promise<KeyMaterial> {
      const row = await getRow(projectId, id);
      if (row.type === 'string')
        throw badRequest(`Access key "${row.name}" holds a single value (type string) and cannot be used to log in`);
      // The row's type, not its material: a restored key holds no value yet and must be refused all the same.
      return open(row) as KeyMaterial;
    },
    /** Ensures a key exists and can log in (git, SSH, become): not a single-value key. */
    async assertLoginKey(projectId: number, id: number, label = 'Access key'): Promise<AccessKeyRow> {
      const row = await resource.assertExists(projectId, id, label);
      if (row.type === 'string')
        throw badRequest(`${label} holds a single value (type string) and cannot be used to log in`);
      return row;
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
