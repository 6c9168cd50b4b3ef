import type { KeyMaterial, TaskParams, TaskSpec } from '@gantry/contract';
import { findUrlCredentials } from '@gantry/contract';
import type { Config } from '../../config.ts';
import type { SecretBox } from '../../secrets/secret-box.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { EnvironmentsService } from '../environments/environments.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import { type KeysService, passwordOf } from '../keys/keys.service.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import type { TemplatesService } from '../templates/templates.service.ts';
import type { TaskRow } from './tasks.table.ts';
import { separateAnsiblePlaybooks } from './task-cli-arguments.ts';

class TaskPreparationError extends Error {}

interface SpecDeps {
  config: Config;
  secrets: SecretBox;
  apps: AppsService;
  keys: KeysService;
  repositories: RepositoriesService;
  inventories: InventoriesService;
  environments: EnvironmentsService;
  templates: TemplatesService;
  /** Gives terraform/tofu tasks the built-in state backend of their workspace (TF_HTTP_* variables). */
  terraformBackend?: {
    issueTaskBackend(task: TaskRow, inventoryId: number): Promise<{ env: Record<string, string>; password: string }>;
  };
}

export interface SpecContext {
  username: string | null;
  /** Version this deploy takes from its build, if any. */
  incomingVersion: string | null;
}

function parseObject(text: string | null | undefined, what: string): Record<string, unknown> {
  if (!text?.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new TaskPreparationError(`${what} is not a JSON object`);
}

/** A task's own arguments, with the playbooks among an ansible task's apart (see separateAnsiblePlaybooks). */
function taskArguments(app: string, args: string[]): { task_args: string[]; extra_playbooks: string[] } {
  if (app !== 'ansible') return { task_args: args, extra_playbooks: [] };
  const { options, playbooks } = separateAnsiblePlaybooks(args);
  return { task_args: options, extra_playbooks: playbooks };
}

function parseArgs(text: string | null): string[] {
  if (!text) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.map(String) : [];
}

function secretValuesOf(key: KeyMaterial): string[] {
  if (key.type === 'ssh') return [key.private_key, key.passphrase];
  if (key.type === 'login_password') return [key.password];
  return [];
}

/**
 * A password written into a repository URL (https://user:token@host/...): the runner keeps it out of
 * what it prints, and masking holds wherever git or a script prints the URL anyway.
 */
function urlPasswordOf(url: string): string[] {
  const password = findUrlCredentials(url)?.password;
  return password ? [password] : [];
}

/** Gathers everything one task needs (decrypting its secrets) into the runner's TaskSpec. */
export function createTaskSpecBuilder(deps: SpecDeps) {
  const none: KeyMaterial = { type: 'none' };

  return {
    async build(task: TaskRow, context: SpecContext): Promise<TaskSpec> {
      const template = await deps.templates.getDefinition(task.project_id, task.template_id);
      if (!template.repository_id) throw new TaskPreparationError('The template has no repository');
      const repository = await deps.repositories.get(task.project_id, template.repository_id);
      const repositoryKey = await deps.keys.getLoginMaterial(task.project_id, repository.ssh_key_id);
      const app = await deps.apps.get(template.app);
      const params = JSON.parse(task.params) as TaskParams;

      const overrideInventory = template.task_params?.allow_override_inventory === true;
      const inventoryId = (overrideInventory && task.inventory_id) || template.inventory_id;
      const inventoryRow = inventoryId ? await deps.inventories.get(task.project_id, inventoryId) : undefined;
      const userKey = inventoryRow?.ssh_key_id
        ? await deps.keys.getLoginMaterial(task.project_id, inventoryRow.ssh_key_id)
        : none;
      const becomeKey = inventoryRow?.become_key_id
        ? await deps.keys.getLoginMaterial(task.project_id, inventoryRow.become_key_id)
        : none;

      // The row alone: its secrets are read once, opened, just below.
      // A workflow step may name its own variable group; it replaces the template's.
      const groupId = task.environment_id ?? template.environment_id;
      const group = groupId ? await deps.environments.assertExists(task.project_id, groupId) : undefined;
      const groupSecrets = group ? await deps.environments.listSecretValues(task.project_id, group.id) : [];
      const surveySecrets = task.secret
        ? (parseObject(deps.secrets.open(task.secret), 'Secret') as Record<string, unknown>)
        : {};

      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(parseObject(group?.env, 'Environment variables')))
        env[key] = String(value);
      const secretVars: Record<string, string> = {};
      for (const secret of groupSecrets) (secret.type === 'env' ? env : secretVars)[secret.name] = secret.value;
      for (const [key, value] of Object.entries(surveySecrets)) secretVars[key] = String(value);
      if (template.type === 'build' && task.version) env.SEMAPHORE_TASK_TARGET_VERSION = task.version;
      if (context.incomingVersion) env.SEMAPHORE_TASK_INCOMING_VERSION = context.incomingVersion;
      if (template.type) env.SEMAPHORE_TASK_TYPE = template.type;

      // A `backend "http" {}` block picks these up; any other backend ignores them.
      const isWorkspace = inventoryRow !== undefined && inventoryRow.type === `${template.app}-workspace`;
      const backend =
        isWorkspace && deps.terraformBackend
          ? await deps.terraformBackend.issueTaskBackend(task, inventoryRow.id)
          : undefined;
      if (backend) Object.assign(env, backend.env);

      const taskUrl = deps.config.web_host
        ? `${deps.config.web_host.replace(/\/$/, '')}/project/${task.project_id}/history?t=${task.id}`
        : null;
      const details = {
        id: task.id,
        username: context.username,
        url: taskUrl,
        message: task.message,
        ...(template.type ? { type: template.type } : {}),
        ...(template.type === 'build' ? { target_version: task.version } : {}),
        ...(context.incomingVersion ? { incoming_version: context.incomingVersion } : {}),
      };
      const extraVars = {
        ...parseObject(group?.json, 'Extra variables'),
        ...parseObject(task.environment, 'Task variables'),
        semaphore_vars: { task_details: details },
      };

      const vaults = [];
      for (const vault of template.vaults) {
        const key =
          vault.type === 'password' && vault.vault_key_id
            ? await deps.keys.getMaterial(task.project_id, vault.vault_key_id)
            : none;
        vaults.push({ name: vault.name, type: vault.type, password: passwordOf(key) ?? '', script: vault.script });
      }

      const branch =
        (template.allow_override_branch_in_task && task.git_branch) || template.git_branch || repository.git_branch;
      const secrets = [
        ...secretValuesOf(repositoryKey),
        ...urlPasswordOf(repository.git_url),
        ...secretValuesOf(userKey),
        ...secretValuesOf(becomeKey),
        ...groupSecrets.map((s) => s.value),
        ...Object.values(surveySecrets).map(String),
        ...vaults.map((v) => v.password),
        ...(backend ? [backend.password] : []),
      ].filter((s) => s.length > 0);

      return {
        task_id: task.id,
        project_id: task.project_id,
        template_id: task.template_id,
        app: template.app,
        app_path: app.path,
        app_args: app.args,
        playbook: task.playbook || template.playbook,
        repository: {
          id: repository.id,
          url: repository.git_url,
          branch,
          key: repositoryKey,
          commit_hash: task.commit_hash,
        },
        private_checkout: template.allow_parallel_tasks,
        inventory: inventoryRow
          ? {
              id: inventoryRow.id,
              type: inventoryRow.type,
              content: inventoryRow.inventory,
              user_key: userKey,
              become_key: becomeKey,
            }
          : null,
        extra_vars: extraVars,
        secret_vars: secretVars,
        env,
        vaults,
        template_args: parseArgs(template.arguments),
        ...taskArguments(template.app, template.allow_override_args_in_task ? parseArgs(task.arguments) : []),
        params,
        workspace: inventoryRow && inventoryRow.type.endsWith('-workspace') ? inventoryRow.inventory : 'default',
        timeout_ms: deps.config.task_timeout_minutes * 60_000,
        secrets,
      };
    },
  };
}

export type TaskSpecBuilder = ReturnType<typeof createTaskSpecBuilder>;
