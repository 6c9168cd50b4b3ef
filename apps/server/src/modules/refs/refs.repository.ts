import { type ResourceRefs, emptyRefs } from '@gantry/contract';
import type { Db } from '../../db/database.ts';

type Named = { id: number; name: string };

function unique(items: Named[]): Named[] {
  const seen = new Map<number, Named>();
  for (const item of items) seen.set(item.id, item);
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Who uses a project resource. Every query is scoped by project. */
export function createRefsRepository(db: Db) {
  const templates = (projectId: number) =>
    db.selectFrom('template').select(['id', 'name']).where('project_id', '=', projectId);
  const inventories = (projectId: number) =>
    db.selectFrom('inventory').select(['id', 'name']).where('project_id', '=', projectId);
  const integrations = (projectId: number) =>
    db.selectFrom('integration').select(['id', 'name']).where('project_id', '=', projectId);

  return {
    async forKey(projectId: number, keyId: number): Promise<ResourceRefs> {
      const viaVaults = await db
        .selectFrom('template_vault')
        .innerJoin('template', 'template.id', 'template_vault.template_id')
        .select(['template.id', 'template.name'])
        .where('template_vault.project_id', '=', projectId)
        .where('template_vault.vault_key_id', '=', keyId)
        .execute();
      return {
        ...emptyRefs(),
        templates: unique(viaVaults),
        inventories: unique([
          ...(await inventories(projectId)
            .where((eb) => eb.or([eb('ssh_key_id', '=', keyId), eb('become_key_id', '=', keyId)]))
            .execute()),
          // Workspaces whose state backend aliases sign in with this key.
          ...(await db
            .selectFrom('terraform_alias')
            .innerJoin('inventory', 'inventory.id', 'terraform_alias.inventory_id')
            .select(['inventory.id', 'inventory.name'])
            .where('terraform_alias.project_id', '=', projectId)
            .where('terraform_alias.auth_key_id', '=', keyId)
            .execute()),
        ]),
        repositories: await db
          .selectFrom('repository')
          .select(['id', 'name'])
          .where('project_id', '=', projectId)
          .where('ssh_key_id', '=', keyId)
          .orderBy('name')
          .execute(),
        integrations: unique(await integrations(projectId).where('auth_secret_id', '=', keyId).execute()),
      };
    },
    async forRepository(projectId: number, repositoryId: number): Promise<ResourceRefs> {
      return {
        ...emptyRefs(),
        templates: unique(await templates(projectId).where('repository_id', '=', repositoryId).execute()),
        inventories: unique(await inventories(projectId).where('repository_id', '=', repositoryId).execute()),
        schedules: unique(
          await db
            .selectFrom('schedule')
            .select(['id', 'name'])
            .where('project_id', '=', projectId)
            .where('repository_id', '=', repositoryId)
            .execute(),
        ),
      };
    },
    async forInventory(projectId: number, inventoryId: number): Promise<ResourceRefs> {
      return {
        ...emptyRefs(),
        templates: unique(await templates(projectId).where('inventory_id', '=', inventoryId).execute()),
      };
    },
    async forEnvironment(projectId: number, environmentId: number): Promise<ResourceRefs> {
      return {
        ...emptyRefs(),
        templates: unique(await templates(projectId).where('environment_id', '=', environmentId).execute()),
      };
    },
    async forTemplate(projectId: number, templateId: number): Promise<ResourceRefs> {
      return {
        ...emptyRefs(),
        templates: unique(await templates(projectId).where('build_template_id', '=', templateId).execute()),
        integrations: unique(await integrations(projectId).where('template_id', '=', templateId).execute()),
        workflows: unique(
          await db
            .selectFrom('workflow_template')
            .innerJoin('workflow', 'workflow.id', 'workflow_template.workflow_id')
            .select(['workflow.id', 'workflow.name'])
            .where('workflow_template.project_id', '=', projectId)
            .where('workflow_template.template_id', '=', templateId)
            .execute(),
        ),
      };
    },
  };
}

export type RefsRepository = ReturnType<typeof createRefsRepository>;
