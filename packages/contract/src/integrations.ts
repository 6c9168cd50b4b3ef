import { z } from 'zod';
import { endpoint, resourceEndpoints } from './endpoint.ts';
import {
  Id,
  NoContent,
  PathId,
  ProjectParams,
  SortOrder,
  requiredString,
  requiredText,
  resourceBodyFields,
} from './common.ts';
import { ScheduleTaskParams, requireOneTarget, targetFields } from './schedules.ts';

/**
 * How an incoming webhook proves where it comes from, as the form offers them. The empty string means
 * "no check" (Semaphore's wire value). `gitlab` is GitLab's secret token, in its X-Gitlab-Token header.
 */
export const INTEGRATION_AUTH_METHODS = ['', 'github', 'bitbucket', 'gitlab', 'token', 'hmac', 'basic'] as const;
/**
 * What the API takes and gives back: "none" too, which Semaphore's clients (its Terraform provider)
 * write for "no check" and read back as they wrote it.
 */
export const IntegrationAuthMethod = z.enum([...INTEGRATION_AUTH_METHODS, 'none'], {
  error: 'Unknown authentication method',
});
export type IntegrationAuthMethod = z.infer<typeof IntegrationAuthMethod>;
/** Methods that read the signature or token from a header the user names. */
export const authMethodNeedsHeader = (method: IntegrationAuthMethod) => method === 'token' || method === 'hmac';
/** Methods that check calls at all: each against a login_password key holding the shared secret. */
export const authMethodNeedsSecret = (method: IntegrationAuthMethod) => method !== '' && method !== 'none';

export const Integration = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  /** Null for an integration that starts a workflow (then `workflow_id` is set). */
  template_id: Id.nullable(),
  /** Present only on an integration that starts a workflow run instead of a task. */
  workflow_id: Id.optional(),
  auth_method: IntegrationAuthMethod,
  auth_header: z.string(),
  auth_secret_id: Id.nullable(),
  searchable: z.boolean(),
  /** Null when empty, as Semaphore sends an unset one: its clients read an empty object as parameters someone set. */
  task_params: z.record(z.string(), z.unknown()).nullable(),
});
export type Integration = z.infer<typeof Integration>;

export const AUTH_HEADER_REQUIRED = requiredText('Auth header');
export const AUTH_SECRET_REQUIRED = requiredText('Auth secret');

export const IntegrationBody = z
  .object({
    ...resourceBodyFields,
    ...targetFields,
    auth_method: z
      .preprocess((v) => (v === null || v === undefined ? '' : v), IntegrationAuthMethod)
      .optional()
      .transform((v) => v ?? ''),
    auth_header: z
      .string()
      .trim()
      .max(255)
      .nullable()
      .optional()
      .transform((v) => v ?? ''),
    // Go clients send 0 for "no key".
    auth_secret_id: z.preprocess((v) => (v === 0 ? null : v), Id.nullable().optional()).transform((v) => v ?? null),
    searchable: z.boolean().optional().default(false),
    task_params: ScheduleTaskParams.nullable()
      .optional()
      .transform((v) => v ?? {}),
  })
  .superRefine((v, ctx) => {
    requireOneTarget(v, ctx);
    if (authMethodNeedsHeader(v.auth_method) && !v.auth_header)
      ctx.addIssue({ code: 'custom', path: ['auth_header'], message: AUTH_HEADER_REQUIRED });
    if (authMethodNeedsSecret(v.auth_method) && !v.auth_secret_id)
      ctx.addIssue({ code: 'custom', path: ['auth_secret_id'], message: AUTH_SECRET_REQUIRED });
  });
export type IntegrationBody = z.input<typeof IntegrationBody>;

/** A public URL that starts the integration (or, without integration, every searchable one of the project). */
export const IntegrationAlias = z.object({ id: Id, url: z.string() });
export type IntegrationAlias = z.infer<typeof IntegrationAlias>;

export const ValueSource = z.enum(['body', 'header'], { error: 'Value Source is required' });
export const MatchType = z.enum(['body', 'header'], { error: 'Match source is required' });
/** How a body is read: parsed as JSON and addressed by a dotted path, or taken whole as text. */
export const BodyDataType = z.enum(['json', 'string']);
export type BodyDataType = z.infer<typeof BodyDataType>;
export const MatchMethod = z.enum(['equals', 'unequals', 'contains'], { error: 'Comparison method is required' });
export type MatchMethod = z.infer<typeof MatchMethod>;
/** Where an extracted value goes: the task's extra variables (environment JSON) or its params. */
export const ExtractVariableType = z.enum(['environment', 'task']);
export type ExtractVariableType = z.infer<typeof ExtractVariableType>;

/** A key is needed unless the whole body is taken as a string. */
const needsKey = (source: 'body' | 'header', bodyDataType: BodyDataType | '') =>
  !(source === 'body' && bodyDataType === 'string');

/**
 * The fields both kinds of rule (matchers, extracted values) have around the one naming their source: which rule
 * it is, and what of the request it reads.
 */
const ruleIdentity = { id: Id, integration_id: Id, name: z.string() };
const ruleReading = { body_data_type: z.union([BodyDataType, z.literal('')]), key: z.string() };

export const IntegrationExtractValue = z.object({
  ...ruleIdentity,
  value_source: ValueSource,
  ...ruleReading,
  variable: z.string(),
  variable_type: ExtractVariableType,
});
export type IntegrationExtractValue = z.infer<typeof IntegrationExtractValue>;

export const BODY_DATA_TYPE_REQUIRED = requiredText('Body data type');
export const BODY_DATA_FORMAT_REQUIRED = requiredText('Body data format');
export const KEY_REQUIRED = requiredText('Key');

const optionalBodyDataType = z
  .union([BodyDataType, z.literal('')], { error: 'Unknown body data type' })
  .nullable()
  .optional()
  .transform((v) => v ?? '');

/** The key of a rule: the header's name or the body's path; empty when the whole body is taken. */
const optionalKey = z
  .string()
  .trim()
  .max(1024)
  .nullable()
  .optional()
  .transform((v) => v ?? '');

/** ruleIdentity and ruleReading as a rule's body sends them. */
const ruleIdentityInput = { id: Id.optional(), integration_id: Id.optional(), name: requiredString('Name') };
const ruleReadingInput = { body_data_type: optionalBodyDataType, key: optionalKey };

interface RuleSource {
  body_data_type: BodyDataType | '';
  key: string;
}

/**
 * What both kinds of rule check the same way, whichever field names where they read (`source`): a
 * body needs its data type, every source but a whole string body needs a key.
 */
function checkRuleSource(
  source: 'body' | 'header',
  rule: RuleSource,
  ctx: z.RefinementCtx,
  bodyDataTypeMessage: string,
): void {
  if (source === 'body' && !rule.body_data_type)
    ctx.addIssue({ code: 'custom', path: ['body_data_type'], message: bodyDataTypeMessage });
  if (needsKey(source, rule.body_data_type) && !rule.key)
    ctx.addIssue({ code: 'custom', path: ['key'], message: KEY_REQUIRED });
}

/** A header has no body data type; storing one would only confuse the next edit. */
const bodyDataTypeOf = (source: 'body' | 'header', rule: RuleSource): BodyDataType | '' =>
  source === 'header' ? '' : rule.body_data_type;

export const IntegrationExtractValueBody = z
  .object({
    ...ruleIdentityInput,
    value_source: ValueSource,
    ...ruleReadingInput,
    variable: requiredString('Variable'),
    variable_type: z
      .union([ExtractVariableType, z.literal('')])
      .nullable()
      .optional()
      .transform((v) => (v ? v : 'environment')),
  })
  .superRefine((v, ctx) => checkRuleSource(v.value_source, v, ctx, BODY_DATA_TYPE_REQUIRED))
  .transform((v) => ({ ...v, body_data_type: bodyDataTypeOf(v.value_source, v) }));
export type IntegrationExtractValueBody = z.input<typeof IntegrationExtractValueBody>;

export const IntegrationMatcher = z.object({
  ...ruleIdentity,
  match_type: MatchType,
  ...ruleReading,
  method: MatchMethod,
  value: z.string(),
});
export type IntegrationMatcher = z.infer<typeof IntegrationMatcher>;

export const IntegrationMatcherBody = z
  .object({
    ...ruleIdentityInput,
    match_type: MatchType,
    ...ruleReadingInput,
    method: MatchMethod,
    value: requiredString('Value', 4096),
  })
  .superRefine((v, ctx) => checkRuleSource(v.match_type, v, ctx, BODY_DATA_FORMAT_REQUIRED))
  .transform((v) => ({ ...v, body_data_type: bodyDataTypeOf(v.match_type, v) }));
export type IntegrationMatcherBody = z.input<typeof IntegrationMatcherBody>;

const RefItem = z.object({ id: Id, name: z.string() });
/** What an integration holds; returned before deleting it. */
export const IntegrationRefs = z.object({ matchers: z.array(RefItem), values: z.array(RefItem) });
export type IntegrationRefs = z.infer<typeof IntegrationRefs>;
/** The integration a matcher or extracted value belongs to. */
export const IntegrationChildRefs = z.object({ integrations: z.array(RefItem) });

export const IntegrationParams = z.object({ projectId: PathId, integrationId: PathId });
const AliasParams = z.object({ projectId: PathId, integrationId: PathId, aliasId: PathId });
const ProjectAliasParams = z.object({ projectId: PathId, aliasId: PathId });
const SortQuery = z.object({ sort: z.enum(['name']).catch('name').optional(), order: SortOrder.optional() });

const base = '/api/project/:projectId/integrations';
const one = `${base}/:integrationId`;

/** The aliases (webhook addresses) under `path`: list, create (no body, answers 200) and delete. */
function aliasEndpoints<TParams extends z.ZodType, TAliasParams extends z.ZodType>(
  path: string,
  params: TParams,
  aliasParams: TAliasParams,
) {
  return {
    list: endpoint({ method: 'GET', path, params, response: z.array(IntegrationAlias) }),
    create: endpoint({ method: 'POST', path, params, response: IntegrationAlias }),
    remove: endpoint({
      method: 'DELETE',
      path: `${path}/:aliasId`,
      params: aliasParams,
      response: NoContent,
      status: 204,
    }),
  };
}
const aliases = aliasEndpoints(`${one}/aliases`, IntegrationParams, AliasParams);
const projectAliases = aliasEndpoints(`${base}/aliases`, ProjectParams, ProjectAliasParams);

/**
 * One kind of an integration's rules (`kind`: its extracted values or its matchers): each kind's endpoints below
 * the integration, sorted by name, with the integration an item belongs to as its refs.
 */
function ruleEndpoints<K extends string, TBody extends z.ZodType, TItem extends z.ZodType>({
  kind,
  ...spec
}: {
  kind: 'values' | 'matchers';
  id: K;
  body: TBody;
  item: TItem;
  createStatus?: number;
}) {
  return resourceEndpoints({
    path: `${one}/${kind}`,
    params: IntegrationParams,
    query: SortQuery,
    refs: IntegrationChildRefs,
    ...spec,
  });
}

/** An integration's extracted values; integrationsApi also names each of them (listValues, ...). */
export const integrationValuesApi = ruleEndpoints({
  kind: 'values',
  id: 'valueId',
  body: IntegrationExtractValueBody,
  item: IntegrationExtractValue,
});
/** An integration's matchers; integrationsApi also names each of them (listMatchers, ...). */
export const integrationMatchersApi = ruleEndpoints({
  kind: 'matchers',
  id: 'matcherId',
  body: IntegrationMatcherBody,
  item: IntegrationMatcher,
  // Semaphore answers 200 (not 201) when a matcher is created; kept for wire compatibility.
  createStatus: 200,
});

export const integrationsApi = {
  ...resourceEndpoints({
    path: base,
    params: ProjectParams,
    id: 'integrationId',
    query: SortQuery,
    body: IntegrationBody,
    item: Integration,
    refs: IntegrationRefs,
  }),

  listAliases: aliases.list,
  createAlias: aliases.create,
  removeAlias: aliases.remove,

  listProjectAliases: projectAliases.list,
  createProjectAlias: projectAliases.create,
  removeProjectAlias: projectAliases.remove,

  listValues: integrationValuesApi.list,
  createValue: integrationValuesApi.create,
  getValue: integrationValuesApi.get,
  updateValue: integrationValuesApi.update,
  removeValue: integrationValuesApi.remove,
  valueRefs: integrationValuesApi.refs,

  listMatchers: integrationMatchersApi.list,
  createMatcher: integrationMatchersApi.create,
  getMatcher: integrationMatchersApi.get,
  updateMatcher: integrationMatchersApi.update,
  removeMatcher: integrationMatchersApi.remove,
  matcherRefs: integrationMatchersApi.refs,
};

/** Largest webhook payload accepted by the public endpoint; larger ones get 413. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The public webhook URL. It accepts POST, GET and OPTIONS alike, answers 204 whether or not a task started
 * (a caller learns nothing about secrets or matchers), 404 for an unknown alias and 413 for an oversize
 * payload. Response headers name the last task started.
 */
export const webhookApi = {
  path: '/api/integrations/:alias',
  methods: ['POST', 'GET', 'OPTIONS'] as const,
  params: z.object({ alias: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }),
  taskIdHeader: 'x-gantry-task-id',
  templateIdHeader: 'x-gantry-template-id',
  projectIdHeader: 'x-gantry-project-id',
  integrationIdHeader: 'x-gantry-integration-id',
  /** Set instead of the task and template headers when the call started a workflow run. */
  workflowRunIdHeader: 'x-gantry-workflow-run-id',
  workflowIdHeader: 'x-gantry-workflow-id',
};
