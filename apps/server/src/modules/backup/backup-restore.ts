import type {
  ApprovalGate,
  BackupApproval,
  BodyDataType,
  ProjectBackup,
  ProjectRoleSlug,
  WorkflowFile,
} from '@gantry/contract';
import { WorkflowDefinition, validateWorkflowGraph } from '@gantry/contract';
import { generateAlias } from '../../http/public-credentials.ts';
import type { ProjectRow } from '../projects/projects.table.ts';
import { nextRunAfter } from '../schedules/cron.ts';
import { fromWorkflowFile, type ProjectNames } from '../workflows/workflow-file.ts';
import { listUses } from '../workflows/workflow-checks.ts';
import type { BackupStores } from './backup.repository.ts';
import {
  VARIABLE_GROUP_KEY_OWNERS,
  environmentOf,
  fail,
  legacySchedulesOf,
  timedSchedulesOf,
  vaultsOf,
} from './backup-sections.ts';

/**
 * Writes the items one after another and maps each one's name to its new id. `insert` is shown the ids written
 * so far: a deploy template names the build template written before it.
 */
async function insertNamed<T extends { name: string }>(
  items: readonly T[],
  insert: (item: T, writtenIds: ReadonlyMap<string, number>) => Promise<number>,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const item of items) ids.set(item.name, await insert(item, ids));
  return ids;
}

interface RestoreContext {
  ownerId: number;
  ownerUsername: string;
  now: Date;
  timezone: string;
  /** Encrypts a secret the backup carries (a variable group's legacy vault password). */
  seal(secret: string): string;
}

/** Writes a verified backup as a new project owned by the caller; run inside one transaction. */
export async function writeBackup(
  stores: BackupStores,
  backup: ProjectBackup,
  { ownerId, ownerUsername, now, timezone, seal }: RestoreContext,
): Promise<ProjectRow> {
  const created = now.toISOString();
  const project = {
    name: backup.meta.name,
    created,
    alert: backup.meta.alert ? 1 : 0,
    alert_chat: backup.meta.alert_chat || null,
    max_parallel_tasks: backup.meta.max_parallel_tasks ?? 0,
    type: backup.meta.type ?? '',
  };
  const projectId = await stores.projects.insert(project);
  await stores.projects.insertMember({ project_id: projectId, user_id: ownerId, role: 'owner', created });

  const idOf = (ids: ReadonlyMap<string, number>, name: string | null | undefined) =>
    name ? (ids.get(name) ?? null) : null;

  // Keys come back without their secrets: the backup never held them.
  const keyIds = await insertNamed(
    backup.keys.filter((key) => !VARIABLE_GROUP_KEY_OWNERS.has(key.owner ?? '')),
    (key) => stores.keys.insert({ project_id: projectId, name: key.name, type: key.type, secret: null, created }),
  );
  const environmentIds = await insertNamed(backup.environments, (environment) =>
    stores.environments.insert({
      project_id: projectId,
      name: environment.name,
      json: environment.json,
      env: environment.env,
      password: environment.password ? seal(environment.password) : null,
      created,
    }),
  );
  const viewIds = await insertNamed(
    backup.views.map((view) => ({ ...view, name: view.title })),
    (view) => stores.views.insert({ project_id: projectId, title: view.title, position: view.position }),
  );
  const repositoryIds = await insertNamed(backup.repositories, (repository) =>
    stores.repositories.insert({
      project_id: projectId,
      name: repository.name,
      git_url: repository.git_url,
      git_branch: repository.git_branch?.trim() ?? '',
      ssh_key_id: idOf(keyIds, repository.ssh_key) ?? 0,
      created,
    }),
  );
  const inventoryIds = await insertNamed(backup.inventories, (inventory) =>
    stores.inventories.insert({
      project_id: projectId,
      name: inventory.name,
      type: inventory.type,
      inventory: inventory.type === 'file' ? inventory.inventory.trim() : inventory.inventory,
      ssh_key_id: idOf(keyIds, inventory.ssh_key),
      become_key_id: idOf(keyIds, inventory.become_key),
      repository_id: idOf(repositoryIds, inventory.repository),
      template_id: null,
      created,
    }),
  );

  /** Task parameters (of templates, schedules and integrations) name their inventory; ids written by another installation mean nothing here. */
  const toTaskParams = (params: Record<string, unknown>) => {
    const { inventory_name: inventoryName, inventory_id: _foreignId, ...rest } = params;
    const inventoryId = idOf(inventoryIds, typeof inventoryName === 'string' ? inventoryName : undefined);
    return { ...rest, ...(inventoryId ? { inventory_id: inventoryId } : {}) };
  };

  // Deploy templates point at their build template, so every other template is written first.
  const ordered = [
    ...backup.templates.filter((t) => t.type !== 'deploy'),
    ...backup.templates.filter((t) => t.type === 'deploy'),
  ];
  const templateIds = await insertNamed(ordered, async (t, writtenIds) => {
    const id = await stores.templates.insert({
      project_id: projectId,
      name: t.name,
      description: t.description ?? '',
      app: t.app,
      type: t.type,
      playbook: t.playbook.trim(),
      inventory_id: idOf(inventoryIds, t.inventory),
      repository_id: idOf(repositoryIds, t.repository),
      environment_id: idOf(environmentIds, environmentOf(t)),
      view_id: idOf(viewIds, t.view),
      arguments: t.arguments?.trim() ? t.arguments : null,
      allow_override_args_in_task: t.allow_override_args_in_task ? 1 : 0,
      allow_override_branch_in_task: t.allow_override_branch_in_task ? 1 : 0,
      allow_parallel_tasks: t.allow_parallel_tasks ? 1 : 0,
      suppress_success_alerts: t.suppress_success_alerts ? 1 : 0,
      start_version: t.type === 'build' ? (t.start_version ?? null) : null,
      build_template_id: t.type === 'deploy' ? idOf(writtenIds, t.build_template) : null,
      autorun: t.type === 'deploy' && t.autorun ? 1 : 0,
      git_branch: t.git_branch?.trim() || null,
      survey_vars: JSON.stringify(t.survey_vars),
      task_params: JSON.stringify(toTaskParams(t.task_params)),
      approval: t.approval ? JSON.stringify(toRestoredGate(t.approval, ownerId, ownerUsername)) : null,
      retries: t.retries ?? 0,
      retry_delay_seconds: t.retry_delay_seconds ?? 0,
      created,
    });
    await stores.insertVaults(
      vaultsOf(t).map((v) => ({
        project_id: projectId,
        template_id: id,
        name: v.name,
        type: v.type,
        vault_key_id: v.type === 'password' ? idOf(keyIds, v.vault_key) : null,
        script: v.type === 'script' ? v.script : '',
      })),
    );
    return id;
  });

  const names: ProjectNames = {
    templates: listNamed(templateIds),
    inventories: listNamed(inventoryIds),
    environments: listNamed(environmentIds),
    users: [{ id: ownerId, name: ownerUsername }],
  };
  // Workflows come before the schedules and integrations that start them.
  const workflowIds = new Map<string, number>();
  for (const [i, file] of backup.workflows.entries()) {
    const where = `workflows[${i}] "${file.name}"`;
    const resolved = fromWorkflowFile(keepMemberApprovers(file, ownerUsername), names);
    const definition = WorkflowDefinition.parse(resolved.definition);
    const errors = [...resolved.errors, ...validateWorkflowGraph(definition)];
    if (errors.length > 0) throw fail(where, errors.join('; '));
    const workflow = await stores.workflows.insert(
      { project_id: projectId, name: definition.name, description: definition.description, created, updated: created },
      { definition: JSON.stringify(definition), userId: ownerId, created, uses: listUses(definition) },
    );
    workflowIds.set(definition.name, workflow.id);
  }

  /** What a schedule or integration starts: its template, or its workflow (then it has no template). */
  const targetIds = (target: { template?: string | null; workflow?: string | null }) =>
    target.workflow
      ? { template_id: null, workflow_id: idOf(workflowIds, target.workflow) }
      : { template_id: idOf(templateIds, target.template) ?? 0, workflow_id: null };

  // An alias still in use on this server (the project was restored beside its original) gets a fresh one.
  const insertAlias = async (integrationId: number | null, alias: string) => {
    const free = (await stores.integrations.findAlias(alias)) === undefined;
    await stores.integrations.insertAlias({
      project_id: projectId,
      integration_id: integrationId,
      alias: free ? alias : generateAlias(),
      created,
    });
  };
  /** What both kinds of an integration's rule store alike: a header has no body data type. */
  const ruleOf = (
    integrationId: number,
    source: 'body' | 'header',
    rule: { name: string; body_data_type: BodyDataType | ''; key: string },
  ) => ({
    project_id: projectId,
    integration_id: integrationId,
    name: rule.name,
    body_data_type: source === 'header' ? ('' as const) : rule.body_data_type,
    key: rule.key,
  });
  for (const integration of backup.integrations) {
    const id = await stores.integrations.insert({
      project_id: projectId,
      ...targetIds(integration),
      name: integration.name,
      auth_method: integration.auth_method,
      auth_header:
        integration.auth_method === 'token' || integration.auth_method === 'hmac'
          ? (integration.auth_header ?? '')
          : '',
      auth_secret_id: integration.auth_method === '' ? null : idOf(keyIds, integration.auth_secret),
      searchable: integration.searchable ? 1 : 0,
      task_params: JSON.stringify(toTaskParams(integration.task_params)),
      created,
    });
    for (const alias of integration.aliases) await insertAlias(id, alias);
    for (const { match_type, method, value, ...rule } of integration.matchers)
      await stores.integrations.matchers.insert({ ...ruleOf(id, match_type, rule), match_type, method, value });
    for (const { value_source, variable, variable_type, ...rule } of integration.extract_values)
      await stores.integrations.values.insert({
        ...ruleOf(id, value_source, rule),
        value_source,
        variable,
        variable_type,
      });
  }
  for (const alias of backup.integration_aliases) await insertAlias(null, alias);

  const insertSchedule = async (fields: {
    name: string;
    template?: string | null;
    workflow?: string | null;
    cron: string;
    active: boolean;
    repository: string | null | undefined;
    taskParams: Record<string, unknown>;
  }) => {
    await stores.schedules.insert({
      project_id: projectId,
      ...targetIds(fields),
      name: fields.name,
      cron_format: fields.cron,
      active: fields.active ? 1 : 0,
      repository_id: idOf(repositoryIds, fields.repository),
      last_commit_hash: null,
      next_run: nextRunAfter(fields.cron, timezone, now)?.toISOString() ?? null,
      task_params: JSON.stringify(fields.taskParams),
      created,
    });
  };
  for (const s of timedSchedulesOf(backup)) {
    await insertSchedule({
      name: s.name?.trim() || s.template || s.workflow || '',
      template: s.template,
      workflow: s.workflow,
      cron: s.cron_format,
      active: s.active,
      repository: s.checkable_repository,
      taskParams: toTaskParams(s.task_params ?? {}),
    });
  }
  for (const t of legacySchedulesOf(backup)) {
    await insertSchedule({
      name: t.name,
      template: t.name,
      cron: t.cron?.trim() ?? '',
      active: true,
      repository: t.repository,
      taskParams: {},
    });
  }

  return { id: projectId, ...project };
}

const listNamed = (ids: Map<string, number>) => [...ids].map(([name, id]) => ({ id, name }));

/**
 * The restored project has one member, its owner: other approvers are left out, and an approval
 * left without any falls to the owners, so that the gate stays closed rather than disappearing.
 */
function keepMemberApprovers(file: WorkflowFile, ownerUsername: string): WorkflowFile {
  const steps = file.steps.map((step) => (step.kind === 'approval' ? keepOwner(step, ownerUsername) : step));
  return { ...file, steps };
}

/** An approval's approvers as the restored project has them: the owner if named, the roles, else the owners. */
function keepOwner<T extends { approvers: { users: string[]; roles: ProjectRoleSlug[] }; required: number }>(
  gate: T,
  ownerUsername: string,
): T {
  const users = gate.approvers.users.filter((name) => name === ownerUsername);
  const roles: ProjectRoleSlug[] =
    users.length === 0 && gate.approvers.roles.length === 0 ? ['owner'] : gate.approvers.roles;
  const required = roles.length === 0 ? Math.min(gate.required, users.length) : gate.required;
  return { ...gate, approvers: { users, roles }, required };
}

/** A template's gate from a backup, by the same rule as workflow approval steps. */
function toRestoredGate(approval: BackupApproval, ownerId: number, ownerUsername: string): ApprovalGate {
  const kept = keepOwner(approval, ownerUsername);
  return {
    ...kept,
    approvers: { user_ids: kept.approvers.users.length > 0 ? [ownerId] : [], roles: kept.approvers.roles },
  };
}
