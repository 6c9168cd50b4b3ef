import { type ResourceRefs, emptyRefs } from '@gantry/contract';
import type { Db } from '../../db/database.ts';

type Named = { id: number; name: string };

function unique(items: Named[]): Named[] {
  const seen = new Map<number, Named>();
  for (const item of items) seen.set(item.id, item);
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** A resource's users of each kind, from the queries that find them: each one listed once, by name. */
async function collectRefs(
  kinds: Partial<Record<keyof ResourceRefs, { execute(): Promise<Named[]> }[]>>,
): Promise<ResourceRefs> {
  const refs = emptyRefs();
  for (const [kind, queries] of Object.entries(kinds) as [keyof ResourceRefs, { execute(): Promise<Named[]> }[]][]) {
    const found: Named[] = [];
    for (const query of queries) found.push(...(await query.execute()));
    refs[kind] = unique(found);
  }
  return refs;
}

/** Who uses a project resource. Every query is scoped by project. */
export function createRefsRepository(db: Db) {
  const templates = (projectId: number) =>
    db.selectFrom('template').select(['id', 'name']).where('project_id', '=', projectId);
  const inventories = (projectId: number) =>
    db.selectFrom('inventory').select(['id', 'name']).where('project_id', '=', projectId);
  const integrations = (projectId: number) =>
    db.selectFrom('integration').select(['id', 'name']).where('project_id', '=', projectId);
  const repositories = (projectId: number) =>
    db.selectFrom('repository').select(['id', 'name']).where('project_id', '=', projectId);
  const schedules = (projectId: number) =>
    db.selectFrom('schedule').select(['id', 'name']).where('project_id', '=', projectId);

  /** Workflows whose revision in force has a step naming the inventory or variable group. */
  const workflowsUsing = (projectId: number, kind: 'inventory' | 'environment', id: number) =>
    db
      .selectFrom('workflow_resource')
      .innerJoin('workflow', 'workflow.id', 'workflow_resource.workflow_id')
      .select(['workflow.id', 'workflow.name'])
      .where('workflow_resource.project_id', '=', projectId)
      .where('workflow_resource.kind', '=', kind)
      .where('workflow_resource.resource_id', '=', id);

  return {
    forKey: (projectId: number, keyId: number) =>
      collectRefs({
        templates: [
          db
            .selectFrom('template_vault')
            .innerJoin('template', 'template.id', 'template_vault.template_id')
            .select(['template.id', 'template.name'])
            .where('template_vault.project_id', '=', projectId)
            .where('template_vault.vault_key_id', '=', keyId),
        ],
        inventories: [
          inventories(projectId).where((eb) => eb.or([eb('ssh_key_id', '=', keyId), eb('become_key_id', '=', keyId)])),
          // Workspaces whose state backend aliases sign in with this key.
          db
            .selectFrom('terraform_alias')
            .innerJoin('inventory', 'inventory.id', 'terraform_alias.inventory_id')
            .select(['inventory.id', 'inventory.name'])
            .where('terraform_alias.project_id', '=', projectId)
            .where('terraform_alias.auth_key_id', '=', keyId),
        ],
        repositories: [repositories(projectId).where('ssh_key_id', '=', keyId)],
        integrations: [integrations(projectId).where('auth_secret_id', '=', keyId)],
      }),
    forRepository: (projectId: number, repositoryId: number) =>
      collectRefs({
        templates: [templates(projectId).where('repository_id', '=', repositoryId)],
        inventories: [inventories(projectId).where('repository_id', '=', repositoryId)],
        schedules: [schedules(projectId).where('repository_id', '=', repositoryId)],
      }),
    forInventory: (projectId: number, inventoryId: number) =>
      collectRefs({
        templates: [templates(projectId).where('inventory_id', '=', inventoryId)],
        workflows: [workflowsUsing(projectId, 'inventory', inventoryId)],
      }),
    forEnvironment: (projectId: number, environmentId: number) =>
      collectRefs({
        templates: [templates(projectId).where('environment_id', '=', environmentId)],
        workflows: [workflowsUsing(projectId, 'environment', environmentId)],
      }),
    forTemplate: (projectId: number, templateId: number) =>
      collectRefs({
        templates: [templates(projectId).where('build_template_id', '=', templateId)],
        integrations: [integrations(projectId).where('template_id', '=', templateId)],
        workflows: [
          db
            .selectFrom('workflow_template')
            .innerJoin('workflow', 'workflow.id', 'workflow_template.workflow_id')
            .select(['workflow.id', 'workflow.name'])
            .where('workflow_template.project_id', '=', projectId)
            .where('workflow_template.template_id', '=', templateId),
        ],
      }),
  };
}

export type RefsRepository = ReturnType<typeof createRefsRepository>;
