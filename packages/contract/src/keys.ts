import { z } from 'zod';
import { resourceEndpoints } from './endpoint.ts';
import { Id, ProjectParams, SortOrder, resourceBodyFields } from './common.ts';
import { ResourceRefs } from './refs.ts';

/** `string` is Semaphore's key holding one secret value (a vault password, a webhook secret). */
export const KeyType = z.enum(['ssh', 'login_password', 'none', 'string'], { error: 'Type is required' });
export type KeyType = z.infer<typeof KeyType>;

/** Key types that can stand for a password: a vault password or a webhook secret. */
export const PASSWORD_KEY_TYPES: readonly KeyType[] = ['login_password', 'string'];
export const isPasswordKeyType = (type: string): boolean => (PASSWORD_KEY_TYPES as readonly string[]).includes(type);

/** What a key looks like on the wire: the secret parts are always empty strings. */
export const AccessKey = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  type: KeyType,
  empty: z.boolean(),
  ssh: z.object({ login: z.literal(''), passphrase: z.literal(''), private_key: z.literal('') }),
  login_password: z.object({ login: z.literal(''), password: z.literal('') }),
  string: z.literal(''),
  /** Semaphore's flag of a key update that replaces the secret; a stored key always answers false. */
  override_secret: z.literal(false),
  /** Semaphore's owner of a key: '' for a project key, the only kind the key list holds. */
  owner: z.literal(''),
  /** Semaphore's plain (non-secret) value and external secret storage: Gantry keeps every key itself. */
  plain: z.null(),
  source_storage_id: z.null(),
  source_storage_key: z.null(),
  source_storage_type: z.null(),
});
export type AccessKey = z.infer<typeof AccessKey>;

/** The fields of AccessKey that are the same on every key: empty secret parts and Semaphore's unused fields. */
export const ACCESS_KEY_CONSTANT_FIELDS = {
  ssh: { login: '', passphrase: '', private_key: '' },
  login_password: { login: '', password: '' },
  string: '',
  override_secret: false,
  owner: '',
  plain: null,
  source_storage_id: null,
  source_storage_key: null,
  source_storage_type: null,
} as const satisfies Omit<AccessKey, 'id' | 'project_id' | 'name' | 'type' | 'empty'>;

const SshSecret = z.object({
  login: z.string().max(255).optional(),
  passphrase: z.string().max(1024).optional(),
  private_key: z
    .string()
    .max(64 * 1024)
    .optional(),
});
const LoginPasswordSecret = z.object({
  login: z.string().max(255).optional(),
  password: z
    .string()
    .max(64 * 1024)
    .optional(),
});

export const KeyBody = z.object({
  ...resourceBodyFields,
  type: KeyType,
  ssh: SshSecret.nullable().optional(),
  login_password: LoginPasswordSecret.nullable().optional(),
  string: z
    .string()
    .max(64 * 1024)
    .nullable()
    .optional(),
  override_secret: z.boolean().optional(),
});
export type KeyBody = z.input<typeof KeyBody>;

const SortQuery = z.object({ sort: z.enum(['name', 'type']).catch('name').optional(), order: SortOrder.optional() });

export const keysApi = resourceEndpoints({
  path: '/api/project/:projectId/keys',
  params: ProjectParams,
  id: 'keyId',
  query: SortQuery,
  body: KeyBody,
  item: AccessKey,
  refs: ResourceRefs,
});
