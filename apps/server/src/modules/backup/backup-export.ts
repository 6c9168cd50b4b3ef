import type { ApprovalGate, BackupApproval, ProjectBackup, SurveyVar } from '@gantry/contract';
import { BACKUP_NAME_MAX, WorkflowDefinition, withoutUrlCredentials } from '@gantry/contract';
import { toWorkflowFile } from '../workflows/workflow-file.ts';
import type { ProjectRow } from '../projects/projects.table.ts';
import type { BackupStores } from './backup.repository.ts';

/** `name (n)`, the name cut short where needed so that it stays within a backup's longest name, never inside a surrogate pair. */
function numbered(name: string, n: number): string {
  const suffix = ` (${n})`;
  let end = Math.min(name.length, BACKUP_NAME_MAX - suffix.length);
  if (end < name.length && /[\uDC00-\uDFFF]/.test(name.charAt(end))) end--;
  return `${name.slice(0, end)}${suffix}`;
}

/**
 * Names are the references of a backup, so each must be unique within its section. Duplicates
 * (Gantry allows them) get a numbered suffix: deterministic, so backing up twice gives one document.
 */
function assignUniqueNames<T extends { id: number }>(rows: T[], nameOf: (row: T) => string): Map<number, string> {
  const taken = new Set(rows.map(nameOf));
  const seen = new Set<string>();
  const names = new Map<number, string>();
  for (const row of rows) {
    let name = nameOf(row);
    if (seen.has(name)) {
      let n = 2;
      while (taken.has(numbered(name, n))) n++;
      name = numbered(name, n);
      taken.add(name);
    }
    seen.add(name);
    names.set(row.id, name);
  }
  return names;
}

/** A gate with its approvers named: members by username (one who left the project is no approver any more). */
function toBackupApproval(gate: ApprovalGate, memberNames: Map<number, string>): BackupApproval {
  const users = gate.approvers.user_ids.flatMap((id) => memberNames.get(id) ?? []);
  return { ...gate, approvers: { users, roles: gate.approvers.roles } };
}

const nameOf = (names: Map<number, string>, id: number | null) => (id === null ? undefined : names.get(id));
const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);
const compareNames = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Named sections are written in name order, so a restored project (whose ids differ) backs up to the same document. */
function sortSections(backup: ProjectBackup): ProjectBackup {
  for (const section of [
    backup.templates,
    backup.repositories,
    backup.keys,
    backup.inventories,
    backup.environments,
    backup.integrations,
    backup.workflows,
  ] as { name: string }[][]) {
    section.sort(compareNames);
  }
  return backup;
}

/**
 * The project as a backup document: every resource except secrets and task history, linked by name.
 * Webhook aliases start tasks, so they are in it only for a caller who may run tasks (`withAliases`);
 * credentials written into repository URLs only for one who manages the project's resources
 * (`withUrlCredentials`), as the repositories' API shows them.
 */
export async function buildBackup(
  stores: BackupStores,
  project: ProjectRow,
  { withAliases, withUrlCredentials }: { withAliases: boolean; withUrlCredentials: boolean },
): Promise<ProjectBackup> {
  const projectId = project.id;
  const listAliases = async (integrationId: number | null) =>
    withAliases ? (await stores.integrations.listAliases(projectId, integrationId)).map((a) => a.alias) : [];
  const keys = byId(await stores.keys.list(projectId, 'name', 'asc'));
  const repositories = byId(await stores.repositories.list(projectId, 'name', 'asc'));
  const inventories = byId(await stores.inventories.list(projectId, 'asc'));
  const environments = byId(await stores.environments.list(projectId, 'name'));
  const views = byId(await stores.views.list(projectId, 'position'));
  const templates = byId(await stores.templates.list(projectId, 'name', 'asc'));
  const vaults = await stores.templates.listVaults(
    projectId,
    templates.map((t) => t.id),
  );
  const schedules = byId(await stores.schedules.list(projectId));
  const integrations = byId(await stores.integrations.list(projectId, 'name'));

  const workflows = await stores.workflows.list(projectId);
  const members = await stores.projects.listMembers(projectId, 'username', 'asc');

  const memberNames = new Map(members.map((m) => [m.user_id, m.username]));
  const keyNames = assignUniqueNames(keys, (k) => k.name);
  const repositoryNames = assignUniqueNames(repositories, (r) => r.name);
  const inventoryNames = assignUniqueNames(inventories, (i) => i.name);
  const environmentNames = assignUniqueNames(environments, (e) => e.name);
  const viewNames = assignUniqueNames(views, (v) => v.title);
  const templateNames = assignUniqueNames(templates, (t) => t.name);
  const integrationNames = assignUniqueNames(integrations, (i) => i.name);
  // Workflow names are unique in a project (a unique index), so they need no suffix.
  const workflowNames = new Map(workflows.map((w) => [w.id, w.name]));
  /** What a schedule or integration starts: a template (as Semaphore has it) or, Gantry's own, a workflow. */
  const targetOf = (row: { template_id: number | null; workflow_id: number | null }, templateName = '') =>
    row.workflow_id === null
      ? { template: nameOf(templateNames, row.template_id) ?? templateName }
      : { workflow: workflowNames.get(row.workflow_id) ?? '' };

  /**
   * Task parameters point at an inventory by id; a backup names it instead (a stored `inventory_name`
   * is no reference and stays out). A `version` the backup format cannot hold (stored before the API
   * checked it) stays out too, so that one schedule cannot break the whole backup.
   */
  const toBackupParams = (json: string) => {
    const stored = JSON.parse(json) as Record<string, unknown>;
    const { inventory_id: inventoryId, inventory_name: _notAReference, version, ...params } = stored;
    const inventoryName = typeof inventoryId === 'number' ? inventoryNames.get(inventoryId) : undefined;
    const keptVersion = typeof version === 'string' && version.length <= BACKUP_NAME_MAX ? { version } : {};
    return { ...params, ...keptVersion, ...(inventoryName ? { inventory_name: inventoryName } : {}) };
  };

  const exportedIntegrations = [];
  for (const integration of integrations) {
    const aliases = await listAliases(integration.id);
    const matchers = await stores.integrations.matchers.list(projectId, integration.id);
    const values = await stores.integrations.values.list(projectId, integration.id);
    exportedIntegrations.push({
      name: integrationNames.get(integration.id) ?? integration.name,
      auth_method: integration.auth_method as ProjectBackup['integrations'][number]['auth_method'],
      auth_header: integration.auth_header,
      searchable: integration.searchable === 1,
      task_params: toBackupParams(integration.task_params),
      ...targetOf(integration),
      auth_secret: nameOf(keyNames, integration.auth_secret_id),
      aliases,
      matchers: matchers.map((m) => ({
        name: m.name,
        match_type: m.match_type as 'body' | 'header',
        method: m.method as 'equals' | 'unequals' | 'contains',
        body_data_type: m.body_data_type as 'json' | 'string' | '',
        key: m.key,
        value: m.value,
      })),
      extract_values: values.map((v) => ({
        name: v.name,
        value_source: v.value_source as 'body' | 'header',
        body_data_type: v.body_data_type as 'json' | 'string' | '',
        key: v.key,
        variable: v.variable,
        variable_type: v.variable_type as 'environment' | 'task',
      })),
    });
  }
  const projectAliases = await listAliases(null);

  return sortSections({
    meta: {
      name: project.name,
      alert: project.alert === 1,
      alert_chat: project.alert_chat ?? undefined,
      max_parallel_tasks: project.max_parallel_tasks,
      type: project.type,
    },
    templates: templates.map((t) => ({
      name: templateNames.get(t.id) ?? t.name,
      app: t.app,
      type: t.type as ProjectBackup['templates'][number]['type'],
      playbook: t.playbook,
      description: t.description,
      arguments: t.arguments ?? undefined,
      allow_override_args_in_task: t.allow_override_args_in_task === 1,
      allow_override_branch_in_task: t.allow_override_branch_in_task === 1,
      allow_parallel_tasks: t.allow_parallel_tasks === 1,
      suppress_success_alerts: t.suppress_success_alerts === 1,
      autorun: t.autorun === 1,
      start_version: t.start_version ?? undefined,
      git_branch: t.git_branch ?? undefined,
      survey_vars: JSON.parse(t.survey_vars) as SurveyVar[],
      task_params: toBackupParams(t.task_params),
      ...(t.approval ? { approval: toBackupApproval(JSON.parse(t.approval) as ApprovalGate, memberNames) } : {}),
      ...(t.retries > 0 ? { retries: t.retries, retry_delay_seconds: t.retry_delay_seconds } : {}),
      repository: nameOf(repositoryNames, t.repository_id) ?? '',
      inventory: nameOf(inventoryNames, t.inventory_id),
      environment: nameOf(environmentNames, t.environment_id),
      build_template: nameOf(templateNames, t.build_template_id),
      view: nameOf(viewNames, t.view_id),
      vaults: vaults
        .filter((v) => v.template_id === t.id)
        .map((v) => ({
          name: v.name,
          type: v.type as 'password' | 'script',
          vault_key: nameOf(keyNames, v.vault_key_id),
          script: v.type === 'script' ? v.script : undefined,
        })),
    })),
    repositories: repositories.map((r) => ({
      name: repositoryNames.get(r.id) ?? r.name,
      git_url: withUrlCredentials ? r.git_url : withoutUrlCredentials(r.git_url),
      git_branch: r.git_branch,
      ssh_key: keyNames.get(r.ssh_key_id) ?? '',
    })),
    keys: keys.map((k) => ({
      name: keyNames.get(k.id) ?? k.name,
      type: k.type as ProjectBackup['keys'][number]['type'],
      owner: '',
    })),
    views: views.map((v) => ({ title: viewNames.get(v.id) ?? v.title, position: v.position })),
    inventories: inventories.map((i) => ({
      name: inventoryNames.get(i.id) ?? i.name,
      type: i.type as ProjectBackup['inventories'][number]['type'],
      inventory: i.inventory,
      ssh_key: nameOf(keyNames, i.ssh_key_id),
      become_key: nameOf(keyNames, i.become_key_id),
      repository: nameOf(repositoryNames, i.repository_id),
    })),
    environments: environments.map((e) => ({ name: environmentNames.get(e.id) ?? e.name, json: e.json, env: e.env })),
    integrations: exportedIntegrations,
    integration_aliases: projectAliases,
    schedules: schedules.map((s) => ({
      name: s.name,
      cron_format: s.cron_format,
      active: s.active === 1,
      ...targetOf(s, s.tpl_name),
      checkable_repository: nameOf(repositoryNames, s.repository_id),
      task_params: toBackupParams(s.task_params),
    })),
    workflows: await Promise.all(
      workflows.map(async (w) => {
        const revision = await stores.workflows.findRevision(projectId, w.id, w.revision);
        const definition = WorkflowDefinition.parse(JSON.parse(revision?.definition ?? '{}'));
        return toWorkflowFile(definition, {
          templates: listNames(templateNames),
          inventories: listNames(inventoryNames),
          environments: listNames(environmentNames),
          users: members.map((m) => ({ id: m.user_id, name: m.username })),
        });
      }),
    ),
  });
}

const listNames = (names: Map<number, string>) => [...names].map(([id, name]) => ({ id, name }));
