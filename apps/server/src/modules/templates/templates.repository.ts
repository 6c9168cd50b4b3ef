import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { TemplateRow, TemplateVaultRow } from './templates.table.ts';

export type TemplateSort = 'name' | 'playbook' | 'inventory' | 'environment' | 'repository';

export interface TemplateFilter {
  app?: string;
  viewId?: number;
}

const SORT_COLUMNS = {
  name: 'template.name',
  playbook: 'template.playbook',
  inventory: 'inventory.name',
  environment: 'environment.name',
  repository: 'repository.name',
} as const;

export function createTemplatesRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'template');
  return {
    ...rows,
    list(
      projectId: number,
      sort: TemplateSort,
      order: 'asc' | 'desc',
      filter: TemplateFilter = {},
    ): Promise<TemplateRow[]> {
      let query = db
        .selectFrom('template')
        .leftJoin('inventory', 'inventory.id', 'template.inventory_id')
        .leftJoin('environment', 'environment.id', 'template.environment_id')
        .leftJoin('repository', 'repository.id', 'template.repository_id')
        .selectAll('template')
        .where('template.project_id', '=', projectId);
      if (filter.app) query = query.where('template.app', '=', filter.app);
      if (filter.viewId !== undefined) query = query.where('template.view_id', '=', filter.viewId);
      return query.orderBy(SORT_COLUMNS[sort], order).orderBy('template.id').execute();
    },
    listVaults(projectId: number, templateIds: number[]): Promise<TemplateVaultRow[]> {
      if (templateIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('template_vault')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('template_id', 'in', templateIds)
        .orderBy('id')
        .execute();
    },
    /**
     * Sets a template's vaults to `vaults` in one transaction. A vault sent with the id of one of this
     * template's vaults is updated in place and keeps its id (clients such as the Terraform provider hold
     * vault ids, as Semaphore keeps them); one without an id, with an id of another template's or project's
     * vault, or with an id already used in the list is added; the template's vaults not in the list go.
     */
    async saveVaults(
      projectId: number,
      templateId: number,
      vaults: (Omit<TemplateVaultRow, 'id' | 'project_id' | 'template_id'> & { id?: number })[],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('template_vault')
          .select('id')
          .where('project_id', '=', projectId)
          .where('template_id', '=', templateId)
          .execute();
        const unclaimed = new Set(current.map((v) => v.id));
        const added: Omit<TemplateVaultRow, 'id'>[] = [];
        for (const { id, ...fields } of vaults) {
          if (id !== undefined && unclaimed.delete(id))
            await trx
              .updateTable('template_vault')
              .set(fields)
              .where('project_id', '=', projectId)
              .where('template_id', '=', templateId)
              .where('id', '=', id)
              .execute();
          else added.push({ ...fields, project_id: projectId, template_id: templateId });
        }
        if (unclaimed.size > 0)
          await trx
            .deleteFrom('template_vault')
            .where('project_id', '=', projectId)
            .where('template_id', '=', templateId)
            .where('id', 'in', [...unclaimed])
            .execute();
        if (added.length > 0) await trx.insertInto('template_vault').values(added).execute();
      });
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
