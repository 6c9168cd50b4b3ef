import { z } from 'zod';
import { resourceEndpoints } from './endpoint.ts';
import { Id, ProjectParams, SortOrder, parseJsonObject, resourceBodyFields } from './common.ts';
import { isJsonNestedTooDeep, nestedTooDeep } from './json-depth.ts';
import { ResourceRefs } from './refs.ts';

export const EXTRA_VARIABLES_INVALID = 'Extra variables must be valid JSON';
export const ENVIRONMENT_VARIABLES_INVALID = 'Environment variables must be valid JSON';

export const EnvironmentSecretType = z.enum(['var', 'env']);
export type EnvironmentSecretType = z.infer<typeof EnvironmentSecretType>;

export const EnvironmentSecret = z.object({
  id: Id,
  type: EnvironmentSecretType,
  name: z.string(),
  secret: z.literal(''),
  operation: z.literal(''),
});

export const Environment = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  json: z.string(),
  env: z.string(),
  /** Semaphore's legacy vault password of a variable group: the field is there, its value never leaves the server. */
  password: z.null(),
  secrets: z.array(EnvironmentSecret),
});
export type Environment = z.infer<typeof Environment>;

/** Environment variable names as a shell accepts them. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_NAME_INVALID = 'Environment variable names may hold only letters, digits and _';

/** Whether a shell accepts the name as an environment variable's (the rule of an `env` secret's name too). */
export const isEnvironmentVariableName = (name: string): boolean => ENV_NAME.test(name);

/**
 * What is wrong with a variable group's environment variables, if anything: the JSON text of an
 * object of plain values whose names a shell accepts (another name, `PATH=/x:` say, would set another
 * variable than the one it reads as).
 */
export function findEnvironmentVariablesProblem(text: string): string | undefined {
  const env = isJsonNestedTooDeep(text) ? undefined : parseJsonObject(text);
  if (!env || Object.values(env).some((v) => typeof v === 'object' && v !== null)) return ENVIRONMENT_VARIABLES_INVALID;
  if (Object.keys(env).some((k) => !isEnvironmentVariableName(k))) return ENV_NAME_INVALID;
  return undefined;
}

/** A secret's name, as created and as renamed by an update; an `env` secret's must also be an environment variable's. */
const SecretName = z.string().trim().min(1, 'Secret name is required').max(255);

export const EnvironmentSecretChange = z.discriminatedUnion('operation', [
  z.object({
    operation: z.literal('create'),
    type: EnvironmentSecretType,
    name: SecretName,
    secret: z.string().max(64 * 1024),
  }),
  /**
   * As in Semaphore 2.16+: the name is written (left out, it stays), an empty secret keeps the stored value,
   * and the type stays what the secret was created with (the server checks the name against that type).
   */
  z.object({
    operation: z.literal('update'),
    id: Id,
    secret: z.string().max(64 * 1024),
    name: SecretName.optional(),
    type: EnvironmentSecretType.optional(),
  }),
  z.object({ operation: z.literal('delete'), id: Id }),
]);
export type EnvironmentSecretChange = z.infer<typeof EnvironmentSecretChange>;

export const EnvironmentBody = z
  .object({
    ...resourceBodyFields,
    json: z
      .string()
      .max(1024 * 1024)
      .nullable()
      .optional()
      .transform((v) => (v?.trim() ? v : '{}')),
    env: z
      .string()
      .max(1024 * 1024)
      .nullable()
      .optional()
      .transform((v) => (v?.trim() ? v : '{}')),
    secrets: z
      .array(z.union([EnvironmentSecretChange, z.object({ operation: z.literal('').optional() }).passthrough()]))
      .max(500)
      .nullable()
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (isJsonNestedTooDeep(body.json))
      ctx.addIssue({ code: 'custom', path: ['json'], message: nestedTooDeep('Extra variables') });
    else if (!parseJsonObject(body.json))
      ctx.addIssue({ code: 'custom', path: ['json'], message: EXTRA_VARIABLES_INVALID });
    const envProblem = findEnvironmentVariablesProblem(body.env);
    if (envProblem) ctx.addIssue({ code: 'custom', path: ['env'], message: envProblem });
    for (const secret of body.secrets ?? []) {
      if (
        'operation' in secret &&
        secret.operation === 'create' &&
        'type' in secret &&
        secret.type === 'env' &&
        !isEnvironmentVariableName(secret.name)
      ) {
        ctx.addIssue({ code: 'custom', path: ['secrets'], message: ENV_NAME_INVALID });
      }
    }
  });
export type EnvironmentBody = z.input<typeof EnvironmentBody>;

const SortQuery = z.object({ sort: z.enum(['name']).catch('name').optional(), order: SortOrder.optional() });

export const environmentsApi = resourceEndpoints({
  path: '/api/project/:projectId/environment',
  params: ProjectParams,
  id: 'environmentId',
  query: SortQuery,
  body: EnvironmentBody,
  item: Environment,
  refs: ResourceRefs,
});
