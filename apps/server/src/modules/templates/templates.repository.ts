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
    /** Replaces a template's vaults in one transaction. */
    async replaceVaults(
      projectId: number,
      templateId: number,
      vaults: Omit<TemplateVaultRow, 'id' | 'project_id' | 'template_id'>[],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('template_vault')
          .where('project_id', '=', projectId)
          .where('template_id', '=', templateId)
          .execute();
        if (vaults.length > 0) {
          await trx
            .insertInto('template_vault')
            .values(vaults.map((v) => ({ ...v, project_id: projectId, template_id: templateId })))
            .execute();
        }
      });
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
