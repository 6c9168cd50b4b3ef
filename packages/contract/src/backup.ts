import { z } from 'zod';
import { APPROVAL_LIMITS, ApprovalGate } from './approvals.ts';
import { endpoint, projectEndpoint } from './endpoint.ts';
import { ProjectRoleSlug } from './permissions.ts';
import { GIT_BRANCH_INVALID, isGitBranchName, parseJsonObject, wireInteger } from './common.ts';
import { MAX_JSON_DEPTH, isJsonNestedTooDeep } from './json-depth.ts';
import {
  BodyDataType,
  ExtractVariableType,
  IntegrationAuthMethod,
  MatchMethod,
  MatchType,
  ValueSource,
} from './integrations.ts';
import { findEnvironmentVariablesProblem } from './environments.ts';
import { InventoryType, isSafeRepositoryPath } from './inventories.ts';
import { Project } from './projects.ts';
import { getGitUrlType, INCORRECT_URL_MESSAGE } from './repositories.ts';
import { TaskParams } from './task-spec.ts';
import {
  CLI_ARGS_INVALID,
  isJsonStringArray,
  repositoryPath,
  SurveyVar,
  TEMPLATE_RETRY_LIMITS,
  TemplateType,
  TemplateVault,
} from './templates.ts';
import { WorkflowFile } from './workflows.ts';

/**
 * A project backup as Semaphore writes and reads it: objects refer to each other by name, never by
 * id; secrets are never part of it. Every section is optional on input (older Semaphore versions
 * lack some) and the limits below keep a hostile file from filling the database.
 */

/** Items per section; far above real projects, low enough that a file cannot ask for millions of rows. */
export const BACKUP_MAX_ITEMS = 5000;

/** The longest name a backup holds, in UTF-16 units as zod counts. */
export const BACKUP_NAME_MAX = 255;
const NAME_MAX = BACKUP_NAME_MAX;
const BIG_TEXT_MAX = 1024 * 1024;

const text = (max: number) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`);
/** Text without its surrounding white space, at most `max` characters once trimmed. */
const trimmedText = (max: number) =>
  z.string({ error: 'must be a string' }).trim().max(max, `must be at most ${max} characters`);
const requiredTrimmedText = (max: number) => trimmedText(max).min(1, 'is required');
const name = () => requiredTrimmedText(NAME_MAX);
/** A reference to another object of the backup, by its name. */
const reference = () => name().nullish();
/** A branch reaches git's command line: a backup may not carry one git would read as an option. */
const gitBranch = text(NAME_MAX).refine(isGitBranchName, GIT_BRANCH_INVALID).nullish();
const flag = () =>
  z
    .boolean({ error: 'must be true or false' })
    .nullish()
    .transform((v) => v ?? false);
const section = <T extends z.ZodType>(item: T) =>
  z
    .array(item, { error: 'must be an array' })
    .max(BACKUP_MAX_ITEMS, `must hold at most ${BACKUP_MAX_ITEMS} items`)
    .nullish()
    .transform((v) => v ?? []);

/** JSON text where a newer format has the value itself; text that is not JSON is left for the schema to refuse. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (!value.trim()) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const jsonObjectText = () =>
  text(BIG_TEXT_MAX)
    .nullish()
    .transform((v) => (v?.trim() ? v : '{}'))
    .refine((value) => !isJsonNestedTooDeep(value), {
      error: `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      abort: true,
    })
    .refine((value) => parseJsonObject(value) !== undefined, 'must be a JSON object');

const freeObject = () =>
  z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .nullish()
    .transform((v) => v ?? {});

export const BackupMeta = z.object({
  name: name(),
  alert: flag(),
  alert_chat: text(NAME_MAX).nullish(),
  max_parallel_tasks: wireInteger({ max: 100000 }).nullish(),
  type: text(32).nullish(),
});

/** `string` keys come from Semaphore; `owner` marks keys Semaphore keeps for variable groups and vaults. */
export const BackupKeyType = z.enum(['none', 'ssh', 'login_password', 'string'], {
  error: 'must be one of none, ssh, login_password, string',
});

export const BackupKey = z.object({
  name: name(),
  type: BackupKeyType,
  owner: text(32).nullish(),
});

export const BackupRepository = z.object({
  name: name(),
  git_url: requiredTrimmedText(2048).refine((url) => getGitUrlType(url) !== undefined, INCORRECT_URL_MESSAGE),
  git_branch: gitBranch,
  ssh_key: name(),
});

export const BackupInventory = z
  .object({
    name: name(),
    type: InventoryType,
    inventory: text(BIG_TEXT_MAX)
      .nullish()
      .transform((v) => v ?? ''),
    ssh_key: reference(),
    become_key: reference(),
    /** Gantry keeps the repository of a file inventory; Semaphore leaves it out. */
    repository: reference(),
  })
  .superRefine((inventory, ctx) => {
    if (inventory.type === 'file' && !isSafeRepositoryPath(inventory.inventory.trim())) {
      ctx.addIssue({ code: 'custom', path: ['inventory'], message: 'must be a relative path inside the repository' });
    }
  });

export const BackupEnvironment = z.object({
  name: name(),
  /** Semaphore's legacy vault password of the group: restored (encrypted), never exported. */
  password: text(64 * 1024).nullish(),
  json: jsonObjectText(),
  // The variable group API's rules: names a shell accepts, plain values.
  env: jsonObjectText().superRefine((env, ctx) => {
    const problem = findEnvironmentVariablesProblem(env);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
});

/** Semaphore before 2.11 wrote a view's title as `name`. */
export const BackupView = z.preprocess(
  (v) =>
    typeof v === 'object' && v !== null && !('title' in v) && 'name' in v
      ? { ...v, title: (v as { name: unknown }).name }
      : v,
  z.object({
    title: name(),
    position: wireInteger({ max: 1_000_000 })
      .nullish()
      .transform((v) => v ?? 0),
  }),
);

/** A vault as the template API takes it: its name becomes an Ansible vault id, its script a file of the repository. */
export const BackupVault = z.object({
  name: TemplateVault.shape.name,
  type: z
    .enum(['password', 'script'], { error: 'must be password or script' })
    .nullish()
    .transform((v) => v ?? 'password'),
  vault_key: reference(),
  script: repositoryPath('Vault script').nullish(),
});

/** A template's approval gate in a backup: approvers by username, as a workflow file names them. */
const BackupApproval = ApprovalGate.omit({ approvers: true }).extend({
  approvers: z.object(
    {
      users: z.array(name()).max(APPROVAL_LIMITS.approvers).optional().default([]),
      roles: z.array(ProjectRoleSlug).max(4).optional().default([]),
    },
    { error: 'Approvers are required' },
  ),
});
export type BackupApproval = z.output<typeof BackupApproval>;

export const BackupTemplate = z.object({
  name: name(),
  app: trimmedText(64)
    .nullish()
    .transform((v) => v || 'ansible'),
  type: TemplateType.nullish().transform((v) => v ?? ''),
  playbook: repositoryPath('Playbook')
    .nullish()
    .transform((v) => v ?? ''),
  description: text(4096).nullish(),
  arguments: text(64 * 1024)
    .nullish()
    .refine((v) => !v?.trim() || isJsonStringArray(v), CLI_ARGS_INVALID),
  allow_override_args_in_task: flag(),
  allow_override_branch_in_task: flag(),
  allow_parallel_tasks: flag(),
  suppress_success_alerts: flag(),
  autorun: flag(),
  start_version: text(NAME_MAX).nullish(),
  git_branch: gitBranch,
  /** Semaphore before 2.11 wrote the survey as JSON text. */
  survey_vars: z.preprocess(
    parseJsonText,
    z
      .array(SurveyVar)
      .max(200)
      .nullish()
      .transform((v) => v ?? []),
  ),
  task_params: freeObject(),
  repository: name(),
  inventory: reference(),
  environment: reference(),
  /** The newest Semaphore lists variable groups; a Gantry template has one, the first. */
  environments: z.array(name()).max(50).nullish(),
  build_template: reference(),
  view: reference(),
  vaults: z
    .array(BackupVault)
    .max(50)
    .nullish()
    .transform((v) => v ?? []),
  /** Semaphore before 2.10: the single vault password key. */
  vault_key: reference(),
  /** Semaphore before schedules[] existed: the cron of the template's "run on new commit" schedule. */
  cron: text(NAME_MAX).nullish(),
  /** Gantry's own: who must approve the template's tasks before they run. */
  approval: BackupApproval.nullish(),
  /** Gantry's own: retries of a failed task and the seconds before each. */
  retries: wireInteger({ min: 0, max: TEMPLATE_RETRY_LIMITS.retries }).nullish(),
  retry_delay_seconds: wireInteger({ min: 0, max: TEMPLATE_RETRY_LIMITS.delaySeconds }).nullish(),
});

export const BackupScheduleTaskParams = z
  .object({
    environment: text(BIG_TEXT_MAX)
      .refine((v) => !isJsonNestedTooDeep(v), `is nested more than ${MAX_JSON_DEPTH} levels deep`)
      .nullish(),
    arguments: text(64 * 1024).nullish(),
    git_branch: gitBranch,
    message: text(1024).nullish(),
    version: text(NAME_MAX).nullish(),
    inventory_name: reference(),
    params: TaskParams.nullish(),
  })
  .catchall(z.unknown());

/** Semaphore's one-time schedules (type run_at, 2025): Gantry has none, a restore leaves them out. */
export const RUN_ONCE_SCHEDULE_TYPE = 'run_at';

/**
 * Gantry's own: a schedule or integration of a workflow names it in `workflow` instead of a template
 * (its task_params' `variables` give the workflow's variables). Semaphore's always name a template.
 */
function requireOneBackupTarget(value: { template?: string | null; workflow?: string | null }, ctx: z.RefinementCtx) {
  if (value.template && value.workflow)
    ctx.addIssue({
      code: 'custom',
      path: ['workflow'],
      message: 'names a workflow beside a template; give one of them',
    });
  else if (!value.template && !value.workflow)
    ctx.addIssue({ code: 'custom', path: ['template'], message: 'is required' });
}

export const BackupSchedule = z
  .object({
    name: text(NAME_MAX).nullish(),
    cron_format: z
      .string({ error: 'must be a string' })
      .trim()
      .max(NAME_MAX)
      .nullish()
      .transform((v) => v ?? ''),
    active: z
      .boolean({ error: 'must be true or false' })
      .nullish()
      .transform((v) => v ?? true),
    type: text(32).nullish(),
    template: reference(),
    workflow: reference(),
    /** Set for "run on new commit" schedules. */
    checkable_repository: reference(),
    task_params: BackupScheduleTaskParams.nullish(),
  })
  .superRefine((schedule, ctx) => {
    requireOneBackupTarget(schedule, ctx);
    if (schedule.type !== RUN_ONCE_SCHEDULE_TYPE && !schedule.cron_format)
      ctx.addIssue({ code: 'custom', path: ['cron_format'], message: 'is required' });
  });

/** The integration enums with messages that name the allowed values: the error path says which field. */
const oneOf = <T extends string>(values: readonly T[]) =>
  z.enum(values as [T, ...T[]], { error: `must be one of ${values.filter(Boolean).join(', ')}` });

const bodyDataType = () =>
  z
    .union([BodyDataType, z.literal('')], { error: 'must be json or string' })
    .nullish()
    .transform((v) => v ?? '');

export const BackupIntegrationMatcher = z.object({
  name: name(),
  match_type: oneOf(MatchType.options),
  method: oneOf(MatchMethod.options),
  body_data_type: bodyDataType(),
  key: text(1024)
    .nullish()
    .transform((v) => v ?? ''),
  value: text(4096)
    .nullish()
    .transform((v) => v ?? ''),
});

export const BackupIntegrationExtractValue = z.object({
  name: name(),
  value_source: oneOf(ValueSource.options),
  body_data_type: bodyDataType(),
  key: text(1024)
    .nullish()
    .transform((v) => v ?? ''),
  variable: name(),
  variable_type: z
    .union([ExtractVariableType, z.literal('')], { error: 'must be environment or task' })
    .nullish()
    .transform((v) => v || 'environment'),
});

/** Aliases are the secret part of a webhook URL: URL-safe characters only, as Gantry and Semaphore make them. */
const alias = () =>
  z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

export const BackupIntegration = z
  .object({
    name: name(),
    auth_method: z
      .preprocess((v) => (v === 'none' || v === null || v === undefined ? '' : v), oneOf(IntegrationAuthMethod.options))
      .optional()
      .transform((v) => v ?? ''),
    auth_header: text(NAME_MAX).nullish(),
    searchable: flag(),
    /** Checked like the integration API checks it: the webhook reads these fields as typed values. */
    task_params: BackupScheduleTaskParams.nullish().transform((v) => v ?? {}),
    template: reference(),
    workflow: reference(),
    auth_secret: reference(),
    aliases: z
      .array(alias())
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
    matchers: z
      .array(BackupIntegrationMatcher)
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
    extract_values: z
      .array(BackupIntegrationExtractValue)
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
  })
  .superRefine(requireOneBackupTarget);

/** The whole document; sections in the order Semaphore writes them. */
export const ProjectBackup = z.object(
  {
    meta: BackupMeta,
    templates: section(BackupTemplate),
    repositories: section(BackupRepository),
    keys: section(BackupKey),
    views: section(BackupView),
    inventories: section(BackupInventory),
    environments: section(BackupEnvironment),
    integrations: section(BackupIntegration),
    integration_aliases: z
      .array(alias())
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
    schedules: section(BackupSchedule),
    /** Gantry's own: each workflow's current revision in its file form (templates named). */
    workflows: section(WorkflowFile),
  },
  { error: 'Backup must be a JSON object' },
);
export type ProjectBackup = z.output<typeof ProjectBackup>;
export type ProjectBackupInput = z.input<typeof ProjectBackup>;

export const backupApi = {
  backup: projectEndpoint('/backup', { method: 'GET', response: ProjectBackup }),
  restore: endpoint({ method: 'POST', path: '/api/projects/restore', body: ProjectBackup, response: Project }),
};
