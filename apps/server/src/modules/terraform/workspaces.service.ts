import { isTerraformApp, workspaceTypeOf } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { ProjectRowsById } from '../../db/project-rows.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { EventsService } from '../events/events.service.ts';
import type { InventoryRow } from '../inventories/inventories.table.ts';
import type { TemplateRow } from '../templates/templates.table.ts';
import type { UserRow } from '../users/users.table.ts';

interface WorkspacesDeps {
  templates: ProjectRowsById<'template'>;
  inventories: ProjectRowsById<'inventory'>;
  events: EventsService;
  clock: Clock;
}

/**
 * The workspaces of a terraform/tofu template: inventories of its workspace type attached to it
 * (inventory.template_id), one of which is the default (template.inventory_id). The default stays
 * attached and in place; another workspace has to become the default first.
 */
export function createWorkspacesService(deps: WorkspacesDeps) {
  const { templates, inventories, events } = deps;

  async function load(
    projectId: number,
    templateId: number,
    inventoryId: number,
  ): Promise<{ template: TemplateRow; inventory: InventoryRow }> {
    const template = await templates.find(projectId, templateId);
    if (!template) throw notFound('Template');
    if (!isTerraformApp(template.app)) throw badRequest('Only Terraform and OpenTofu templates have workspaces');
    const inventory = await inventories.find(projectId, inventoryId);
    if (!inventory) throw notFound('Inventory');
    if (inventory.type !== workspaceTypeOf(template.app))
      throw badRequest(`The inventory is not a ${workspaceTypeOf(template.app)}`);
    if (inventory.template_id !== null && inventory.template_id !== templateId)
      throw badRequest('The workspace belongs to another template');
    return { template, inventory };
  }

  const record = (actor: UserRow, projectId: number, template: TemplateRow, description: string) =>
    events.record({ userId: actor.id, projectId, objectType: 'template', objectId: template.id, description });

  return {
    async attach(actor: UserRow, projectId: number, templateId: number, inventoryId: number): Promise<void> {
      const { template, inventory } = await load(projectId, templateId, inventoryId);
      if (inventory.template_id === templateId) return;
      await inventories.update(projectId, inventoryId, { template_id: templateId });
      await record(actor, projectId, template, `Workspace ${inventory.name} attached to template ${template.name}`);
    },
    async detach(actor: UserRow, projectId: number, templateId: number, inventoryId: number): Promise<void> {
      const { template, inventory } = await load(projectId, templateId, inventoryId);
      if (template.inventory_id === inventoryId) throw badRequest('The default workspace cannot be detached');
      if (inventory.template_id !== templateId) throw badRequest('The workspace is not attached to this template');
      await inventories.update(projectId, inventoryId, { template_id: null });
      await record(actor, projectId, template, `Workspace ${inventory.name} detached from template ${template.name}`);
    },
    async setDefault(actor: UserRow, projectId: number, templateId: number, inventoryId: number): Promise<void> {
      const { template, inventory } = await load(projectId, templateId, inventoryId);
      if (template.inventory_id === inventoryId) throw badRequest('The workspace is already the default');
      if (inventory.template_id === null) await inventories.update(projectId, inventoryId, { template_id: templateId });
      await templates.update(projectId, templateId, { inventory_id: inventoryId });
      await record(
        actor,
        projectId,
        template,
        `Workspace ${inventory.name} made the default of template ${template.name}`,
      );
    },
    /** A new terraform/tofu template without a workspace gets "<name> - default" (workspace "default"), like its peers. */
    async ensureDefault(projectId: number, templateId: number): Promise<void> {
      const template = await templates.find(projectId, templateId);
      if (!template || !isTerraformApp(template.app)) return;
      if (template.inventory_id !== null) {
        // A workspace chosen on creation that nobody holds yet becomes this template's.
        const chosen = await inventories.find(projectId, template.inventory_id);
        if (chosen?.type === workspaceTypeOf(template.app) && chosen.template_id === null)
          await inventories.update(projectId, chosen.id, { template_id: templateId });
        return;
      }
      const id = await inventories.insert({
        project_id: projectId,
        name: `${template.name} - default`.slice(0, 255),
        type: workspaceTypeOf(template.app),
        inventory: 'default',
        ssh_key_id: null,
        become_key_id: null,
        repository_id: null,
        template_id: templateId,
        created: toTimestamp(deps.clock.now()),
      });
      await templates.update(projectId, templateId, { inventory_id: id });
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
