import type { InventoryType } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { InventoryRow } from './inventories.table.ts';

export interface InventoryFilter {
  types?: InventoryType[];
  templateId?: number;
}

export function createInventoriesRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'inventory');
  return {
    ...rows,
    list(projectId: number, order: 'asc' | 'desc', filter: InventoryFilter = {}): Promise<InventoryRow[]> {
      let query = db.selectFrom('inventory').selectAll().where('project_id', '=', projectId);
      if (filter.types) query = query.where('type', 'in', filter.types);
      if (filter.templateId !== undefined) query = query.where('template_id', '=', filter.templateId);
      return query.orderBy('name', order).orderBy('id').execute();
    },
  };
}

export type InventoriesRepository = ReturnType<typeof createInventoriesRepository>;
