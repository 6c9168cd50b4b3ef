import { z } from 'zod';
import { ApprovalGate, validateApprovalGate } from './approvals.ts';
import { endpoint, resourceEndpoints } from './endpoint.ts';
import {
  GIT_BRANCH_INVALID,
  Id,
  OptionalId,
  PathId,
  ProjectParams,
  SortOrder,
  isGitBranchName,
  wireInteger,
  resourceBodyFields,
} from './common.ts';
import { isSafeRepositoryPath } from './inventories.ts';
import { ResourceRefs } from './refs.ts';
import { isSurveyInteger } from './survey-answers.ts';

export const TemplateType = z.enum(['', 'build', 'deploy']);
export type TemplateType = z.infer<typeof TemplateType>;

/** Apps whose templates name a file to run (a playbook or a script); infrastructure apps name a directory, if anything. */
export const APPS_WITHOUT_PLAYBOOK = ['terraform', 'tofu', 'pulumi'] as const;
export const appNeedsPlaybook = (app: string) => !(APPS_WITHOUT_PLAYBOOK as readonly string[]).includes(app);
export const appNeedsInventory = (app: string) => app === 'ansible';

export const SurveyVarType = z.enum(['', 'int', 'secret', 'enum']);
export type SurveyVarType = z.infer<typeof SurveyVarType>;

export const SurveyVarValue = z.object({ name: z.string().max(255), value: z.string().max(4096) });

export const SurveyVar = z
  .object({
    name: z
      .string({ error: 'Name is required' })
      .trim()
      .min(1, 'Name is required')
      .max(255)
      // A secret answer of a shell task becomes an environment variable of this name, others `name=value` words.
      .refine((name) => !/[=\s\p{C}]/u.test(name), 'Name cannot hold =, spaces or control characters'),
    title: z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(255),
    description: z.string().max(4096).optional().default(''),
    type: SurveyVarType.optional().default(''),
    required: z.boolean().optional().default(false),
    values: z
      .array(SurveyVarValue)
      .max(500)
      .nullable()
      .optional()
      .transform((v) => v ?? []),
    default_value: z.string().max(4096).optional().default(''),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'enum') {
      if (v.values.length === 0)
        ctx.addIssue({ code: 'custom', path: ['values'], message: 'Enumeration must have values.' });
      if (v.values.some((x) => !x.name.trim()))
        ctx.addIssue({ code: 'custom', path: ['values'], message: 'Value name cannot be empty.' });
      const names = v.values.map((x) => x.name.trim());
      if (new Set(names).size !== names.length)
        ctx.addIssue({ code: 'custom', path: ['values'], message: 'Enumeration values must have unique names.' });
    }
    if (v.type === 'int' && v.default_value !== '' && !isSurveyInteger(v.default_value)) {
      ctx.addIssue({ code: 'custom', path: ['default_value'], message: 'Must be integer' });
    }
  });
export type SurveyVar = z.output<typeof SurveyVar>;

export const VaultType = z.enum(['password', 'script'], { error: 'Type is required' });

/** Vault client scripts follow Ansible's naming rule: the file name ends in -client, extension optional. */
export const VAULT_SCRIPT_PATTERN = /-client(\.[A-Za-z0-9]+)?$/;

/**
 * A file or directory of the template's repository. Relative and without `..` segments, so that it
 * cannot name anything outside the repository; the runner also follows links before it uses one.
 */
export const repositoryPath = (label: string) =>
  z
    .string()
    .trim()
    .max(1024, `${label} must be at most 1024 characters`)
    .refine(
      (v) => v === '' || isSafeRepositoryPath(v),
      `${label} must be a path inside the repository: relative, without .. segments`,
    );

/** Vault names become Ansible vault ids (`name@source`): a plain word, never a path. */
export const VAULT_NAME_PATTERN = /^[a-z0-9_.-]*$/;
export const VAULT_NAME_INVALID = 'Vault name may only hold letters, digits, _, - and . (and not ..)';

export const TemplateVault = z
  .object({
    id: Id.optional(),
    name: z
      .string()
      .trim()
      .toLowerCase()
      .max(100, 'Vault name must be at most 100 characters')
      .refine((v) => VAULT_NAME_PATTERN.test(v) && !v.includes('..'), VAULT_NAME_INVALID)
      .nullable()
      .optional()
      .transform((v) => v ?? ''),
    type: VaultType,
    vault_key_id: OptionalId,
    script: repositoryPath('Vault script')
      .nullable()
      .optional()
      .transform((v) => v ?? ''),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'password' && !v.vault_key_id)
      ctx.addIssue({ code: 'custom', path: ['vault_key_id'], message: 'Vault password is required' });
    if (v.type === 'script' && !VAULT_SCRIPT_PATTERN.test(v.script)) {
      ctx.addIssue({
        code: 'custom',
        path: ['script'],
        message: 'Script name must end with -client (an extension is allowed)',
      });
    }
  });
export type TemplateVault = z.output<typeof TemplateVault>;

export const VaultOut = z.object({
  id: Id,
  name: z.string(),
  type: VaultType,
  vault_key_id: Id.nullable(),
  script: z.string(),
});

export const CLI_ARGS_INVALID = 'CLI args must be a JSON array of strings';

/** CLI args as a template or a task request sends them (checked as a JSON array where they are used); blank is none. */
export const CliArgsText = z
  .string()
  .max(64 * 1024)
  .nullable()
  .optional()
  .transform((v) => (v?.trim() ? v : null));

export function isJsonStringArray(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((item) => typeof item === 'string');
  } catch {
    return false;
  }
}

/** Bounds of a template's retries of failed tasks. */
export const TEMPLATE_RETRY_LIMITS = { retries: 10, delaySeconds: 86_400 };

export const TemplateBody = z
  .object({
    ...resourceBodyFields,
    description: z.string().max(4096).nullable().optional(),
    app: z.string({ error: 'App is required' }).trim().min(1, 'App is required').max(64).optional().default('ansible'),
    type: TemplateType.nullable()
      .optional()
      .transform((v) => v ?? ''),
    playbook: repositoryPath('Playbook')
      .nullable()
      .optional()
      .transform((v) => v ?? ''),
    inventory_id: OptionalId,
    repository_id: OptionalId,
    environment_id: OptionalId,
    /** Semaphore 2.16+ names variable groups in a list; a Gantry template has one. */
    environment_ids: z.array(Id).max(50).nullable().optional(),
    view_id: OptionalId,
    arguments: CliArgsText,
    allow_override_args_in_task: z.boolean().optional().default(false),
    allow_override_branch_in_task: z.boolean().optional().default(false),
    allow_parallel_tasks: z.boolean().optional().default(false),
    suppress_success_alerts: z.boolean().optional().default(false),
    start_version: z.string().trim().max(255).nullable().optional(),
    build_template_id: OptionalId,
    autorun: z.boolean().optional().default(false),
    git_branch: z.string().trim().max(255).refine(isGitBranchName, GIT_BRANCH_INVALID).nullable().optional(),
    survey_vars: z
      .array(SurveyVar)
      .max(200)
      .nullable()
      .optional()
      .transform((v) => v ?? []),
    vaults: z
      .array(TemplateVault)
      .max(50)
      .nullable()
      .optional()
      .transform((v) => v ?? []),
    task_params: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .transform((v) => v ?? {}),
    /**
     * Gantry's own: approvers must approve each task of the template before it runs; null runs them at
     * once, and leaving it out (as Semaphore's clients do) keeps what the template had.
     */
    approval: ApprovalGate.nullable().optional(),
    /** Gantry's own: how often a failed task is retried (0 is off); left out, the template keeps its setting. */
    retries: wireInteger({ min: 0, max: TEMPLATE_RETRY_LIMITS.retries, message: 'Retries must be 0 to 10' }).optional(),
    /** Gantry's own: the seconds between a failure and its retry; left out, the template keeps its setting. */
    retry_delay_seconds: wireInteger({
      min: 0,
      max: TEMPLATE_RETRY_LIMITS.delaySeconds,
      message: `Retry delay must be 0 to ${TEMPLATE_RETRY_LIMITS.delaySeconds} seconds`,
    }).optional(),
  })
  .superRefine((t, ctx) => {
    const need = (ok: unknown, path: string, message: string) => {
      if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
    };
    need(t.repository_id, 'repository_id', 'Repository is required');
    const groups = new Set([...(t.environment_id ? [t.environment_id] : []), ...(t.environment_ids ?? [])]);
    need(groups.size > 0, 'environment_id', 'Variable group is required');
    need(groups.size <= 1, 'environment_ids', 'A template has one variable group');
    if (appNeedsPlaybook(t.app))
      need(
        t.playbook,
        'playbook',
        t.app === 'ansible' ? 'Playbook filename is required' : 'Script filename is required',
      );
    if (appNeedsInventory(t.app)) need(t.inventory_id, 'inventory_id', 'Inventory is required');
    if (t.type === 'build') need(t.start_version, 'start_version', 'Start version is required');
    if (t.type === 'deploy') need(t.build_template_id, 'build_template_id', 'Build template is required');
    if (t.arguments !== null && !isJsonStringArray(t.arguments)) need(false, 'arguments', CLI_ARGS_INVALID);
    for (const problem of t.approval ? validateApprovalGate(t.approval, 'Approval') : [])
      need(false, 'approval', problem);
    const vaultNames = t.vaults.map((v) => v.name);
    if (new Set(vaultNames).size !== vaultNames.length)
      need(false, 'vaults', 'Vault names must be unique; only one vault may have no name');
  });
export type TemplateBody = z.input<typeof TemplateBody>;
export type TemplateInput = z.output<typeof TemplateBody>;

/** The template's variable group, sent as Gantry and Semaphore before 2.16 do or as a list of one. */
export const templateEnvironmentIdOf = (body: TemplateInput): number | null =>
  body.environment_id ?? body.environment_ids?.[0] ?? null;

export const Template = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  description: z.string(),
  app: z.string(),
  type: TemplateType,
  playbook: z.string(),
  inventory_id: Id.nullable(),
  repository_id: Id.nullable(),
  environment_id: Id.nullable(),
  /** Semaphore 2.16+ reads the variable groups as a list: here the one of environment_id. */
  environment_ids: z.array(Id),
  view_id: Id.nullable(),
  arguments: z.string().nullable(),
  allow_override_args_in_task: z.boolean(),
  allow_override_branch_in_task: z.boolean(),
  allow_parallel_tasks: z.boolean(),
  suppress_success_alerts: z.boolean(),
  start_version: z.string().nullable(),
  build_template_id: Id.nullable(),
  autorun: z.boolean(),
  git_branch: z.string().nullable(),
  survey_vars: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      description: z.string(),
      type: SurveyVarType,
      required: z.boolean(),
      values: z.array(SurveyVarValue),
      default_value: z.string(),
    }),
  ),
  vaults: z.array(VaultOut),
  /** Null when empty, as Semaphore sends an unset one: its clients read an empty object as parameters someone set. */
  task_params: z.record(z.string(), z.unknown()).nullable(),
  /** Gantry's own: who must approve a task of the template before it runs; null when nobody. */
  approval: ApprovalGate.nullable(),
  /** Gantry's own: retries of a failed task (0 is off) and the seconds before each. */
  retries: wireInteger(),
  retry_delay_seconds: wireInteger(),
  /** Semaphore's runner tag of a template: Gantry places tasks without tags. */
  runner_tag: z.null(),
  tasks: wireInteger(),
  /** Filled in by the task engine; null while the template has never run. */
  last_task: z.record(z.string(), z.unknown()).nullable(),
  last_task_id: Id.nullable(),
});
export type Template = z.infer<typeof Template>;

const TemplateSort = z.enum(['name', 'playbook', 'inventory', 'environment', 'repository']).catch('name');
const ListQuery = z.object({
  sort: TemplateSort.optional(),
  order: SortOrder.optional(),
  app: z.string().max(64).optional(),
});

export const templatesApi = {
  ...resourceEndpoints({
    path: '/api/project/:projectId/templates',
    params: ProjectParams,
    id: 'templateId',
    query: ListQuery,
    body: TemplateBody,
    item: Template,
    refs: ResourceRefs,
  }),
  listByView: endpoint({
    method: 'GET',
    path: '/api/project/:projectId/views/:viewId/templates',
    params: z.object({ projectId: PathId, viewId: PathId }),
    query: ListQuery,
    response: z.array(Template),
  }),
};
