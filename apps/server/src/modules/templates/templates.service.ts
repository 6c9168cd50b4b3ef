import type { ApprovalGate, SurveyVar, Template, TemplateInput } from '@gantry/contract';
import { isPasswordKeyType, templateEnvironmentIdOf } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import { badRequest, notFound, validationFailed } from '../../errors.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { EnvironmentsService } from '../environments/environments.service.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoriesService } from '../inventories/inventories.service.ts';
import type { KeysService } from '../keys/keys.service.ts';
import { assertBodyInProject, type ResourceRefsLookup, usedResource } from '../refs/project-resource.ts';
import type { RepositoriesService } from '../repositories/repositories.service.ts';
import type { UserRow } from '../users/users.table.ts';
import type { ViewsService } from '../views/views.service.ts';
import type { TemplateFilter, TemplateSort, TemplatesRepository } from './templates.repository.ts';
import type { TemplateRow, TemplateVaultRow } from './templates.table.ts';
import { columnsOf, flagsOf, taskParamsOf } from '../../db/row-fields.ts';

function toTemplate(row: TemplateRow, vaults: TemplateVaultRow[], lastTask: Template['last_task'] = null): Template {
  return {
    ...columnsOf(row, [
      'id',
      'project_id',
      'name',
      'description',
      'app',
      'type',
      'playbook',
      'inventory_id',
      'repository_id',
      'environment_id',
      'view_id',
      'arguments',
      'start_version',
      'build_template_id',
      'git_branch',
    ]),
    ...flagsOf(row, [
      'allow_override_args_in_task',
      'allow_override_branch_in_task',
      'allow_parallel_tasks',
      'suppress_success_alerts',
      'autorun',
    ]),
    environment_ids: row.environment_id ? [row.environment_id] : [],
    survey_vars: JSON.parse(row.survey_vars) as SurveyVar[],
    vaults: vaults.map((v) => ({
      id: v.id,
      name: v.name,
      type: v.type as 'password' | 'script',
      vault_key_id: v.vault_key_id,
      script: v.script,
    })),
    task_params: taskParamsOf(row.task_params),
    approval: row.approval === null ? null : (JSON.parse(row.approval) as ApprovalGate),
    retries: row.retries,
    retry_delay_seconds: row.retry_delay_seconds,
    runner_tag: null,
    tasks: 0,
    last_task: lastTask,
    last_task_id: lastTask ? Number(lastTask.id) : null,
  };
}

interface TemplatesDeps {
  templates: TemplatesRepository;
  apps: AppsService;
  keys: KeysService;
  repositories: RepositoriesService;
  inventories: InventoriesService;
  environments: EnvironmentsService;
  views: ViewsService;
  refs: ResourceRefsLookup;
  events: EventsService;
  clock: Clock;
  /** The newest task of each of the given templates, keyed by template id (from the task engine). */
  lastTasks(projectId: number, templateIds: number[]): Promise<Map<number, Record<string, unknown>>>;
  /** Those of the users who may approve in the project (members who are no guests). */
  listApproverIds(projectId: number, userIds: readonly number[]): Promise<number[]>;
  /** Runs after a template is stored (terraform/tofu templates get their default workspace here). */
  onCreated?(projectId: number, templateId: number): Promise<void>;
}

export function createTemplatesService(deps: TemplatesDeps) {
  const { templates, refs, events, clock } = deps;

  const resource = usedResource({
    label: 'Template',
    objectType: 'template',
    rows: templates,
    events,
    usedBy: refs.forTemplate,
  });
  const { get: getRow, record } = resource;

  /** Templates with their vaults; lists also carry each template's newest task. */
  async function withVaults(projectId: number, rows: TemplateRow[]): Promise<Template[]> {
    const ids = rows.map((r) => r.id);
    const vaults = await templates.listVaults(projectId, ids);
    const lastTasks = await deps.lastTasks(projectId, ids);
    return rows.map((row) =>
      toTemplate(
        row,
        vaults.filter((v) => v.template_id === row.id),
        lastTasks.get(row.id) ?? null,
      ),
    );
  }

  /**
   * The ids in the task parameters a template, schedule or integration stores, checked as the ones beside
   * them: a task started with them must not reach a row of another project.
   */
  async function assertTaskParamsInProject(projectId: number, taskParams: Record<string, unknown>): Promise<void> {
    const inventoryId = taskParams.inventory_id;
    // Absent, null or 0 is no inventory, as for the body's own inventory_id.
    if (inventoryId === undefined || inventoryId === null || inventoryId === 0) return;
    if (typeof inventoryId !== 'number' || !Number.isSafeInteger(inventoryId) || inventoryId < 0)
      throw badRequest('Inventory not found in this project');
    await deps.inventories.assertExists(projectId, inventoryId);
  }

  /** Checks that everything the template points at exists in the same project, then shapes the row. */
  async function toRow(projectId: number, body: TemplateInput, selfId?: number) {
    assertBodyInProject(projectId, body);
    await deps.apps.assertKnown(body.app);
    if (body.repository_id) await deps.repositories.assertExists(projectId, body.repository_id);
    const environmentId = templateEnvironmentIdOf(body);
    if (environmentId) await deps.environments.assertExists(projectId, environmentId);
    if (body.inventory_id) await deps.inventories.assertExists(projectId, body.inventory_id);
    if (body.view_id) await deps.views.assertExists(projectId, body.view_id);
    await assertTaskParamsInProject(projectId, body.task_params);
    if (body.type === 'deploy' && body.build_template_id) {
      if (body.build_template_id === selfId) throw badRequest('A deploy template cannot build itself');
      const build = await templates.find(projectId, body.build_template_id);
      if (!build || build.type !== 'build') throw badRequest('Build template must be a build template of this project');
    }
    for (const vault of body.vaults) {
      if (vault.type !== 'password' || !vault.vault_key_id) continue;
      const key = await deps.keys.assertExists(projectId, vault.vault_key_id, 'Vault password key');
      if (!isPasswordKeyType(key.type)) throw badRequest('Vault password key must be a login with password key');
    }
    if (body.approval) {
      const eligible = new Set(await deps.listApproverIds(projectId, body.approval.approvers.user_ids));
      const strangers = body.approval.approvers.user_ids.filter((id) => !eligible.has(id));
      if (strangers.length > 0)
        throw validationFailed(`Approvers ${strangers.join(', ')} are not members of this project who may approve`);
    }
    return {
      // Left out (as Semaphore's clients do), the gate stays as it was; null removes it.
      ...(body.approval === undefined ? {} : { approval: body.approval ? JSON.stringify(body.approval) : null }),
      ...(body.retries === undefined ? {} : { retries: body.retries }),
      ...(body.retry_delay_seconds === undefined ? {} : { retry_delay_seconds: body.retry_delay_seconds }),
      name: body.name,
      description: body.description ?? '',
      app: body.app,
      type: body.type,
      playbook: body.playbook,
      inventory_id: body.inventory_id ?? null,
      repository_id: body.repository_id ?? null,
      environment_id: environmentId,
      view_id: body.view_id ?? null,
      arguments: body.arguments,
      allow_override_args_in_task: body.allow_override_args_in_task ? 1 : 0,
      allow_override_branch_in_task: body.allow_override_branch_in_task ? 1 : 0,
      allow_parallel_tasks: body.allow_parallel_tasks ? 1 : 0,
      suppress_success_alerts: body.suppress_success_alerts ? 1 : 0,
      start_version: body.type === 'build' ? (body.start_version ?? null) : null,
      build_template_id: body.type === 'deploy' ? (body.build_template_id ?? null) : null,
      autorun: body.type === 'deploy' && body.autorun ? 1 : 0,
      git_branch: body.git_branch || null,
      survey_vars: JSON.stringify(body.survey_vars),
      task_params: JSON.stringify(body.task_params),
    };
  }

  const toVaultRows = (body: TemplateInput) =>
    body.vaults.map((v) => ({
      id: v.id,
      name: v.name,
      type: v.type,
      vault_key_id: v.type === 'password' ? (v.vault_key_id ?? null) : null,
      script: v.type === 'script' ? v.script : '',
    }));

  return {
    async list(
      projectId: number,
      sort: TemplateSort,
      order: 'asc' | 'desc',
      filter: TemplateFilter,
    ): Promise<Template[]> {
      // A view of another project is not found, rather than a view without templates.
      if (filter.viewId !== undefined) await deps.views.get(projectId, filter.viewId);
      return withVaults(projectId, await templates.list(projectId, sort, order, filter));
    },
    async get(projectId: number, id: number): Promise<Template> {
      const [template] = await withVaults(projectId, [await getRow(projectId, id)]);
      if (!template) throw notFound('Template');
      return template;
    },
    /** A template as the task engine needs it: without the newest-task lookup of the API. */
    async getDefinition(projectId: number, id: number): Promise<Template> {
      const row = await getRow(projectId, id);
      return toTemplate(row, await templates.listVaults(projectId, [row.id]));
    },
    async exists(projectId: number, id: number): Promise<boolean> {
      return (await templates.find(projectId, id)) !== undefined;
    },
    async create(actor: UserRow | undefined, projectId: number, body: TemplateInput): Promise<Template> {
      const row = { ...(await toRow(projectId, body)), project_id: projectId, created: toTimestamp(clock.now()) };
      const id = await templates.insert(row);
      await templates.saveVaults(projectId, id, toVaultRows(body));
      await deps.onCreated?.(projectId, id);
      if (actor) await record(actor, projectId, id, `Template ${row.name} created`);
      return this.get(projectId, id);
    },
    async update(actor: UserRow, projectId: number, id: number, body: TemplateInput): Promise<void> {
      if (body.id !== undefined && body.id !== id) throw badRequest('Template ID in URL and in body must be the same');
      await getRow(projectId, id);
      await templates.update(projectId, id, await toRow(projectId, body, id));
      await templates.saveVaults(projectId, id, toVaultRows(body));
      await record(actor, projectId, id, `Template ${body.name} updated`);
    },
    assertTaskParamsInProject,
    refs: resource.refs,
    remove: resource.remove,
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
