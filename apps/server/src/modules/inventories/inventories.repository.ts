import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { InventoryRow } from './inventories.table.ts';

export interface InventoryFilter {
  types?: string[];
  templateId?: number;
}

export function createInventoriesRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number, order: 'asc' | 'desc', filter: InventoryFilter = {}): Promise<InventoryRow[]> {
      let query = db.selectFrom('inventory').selectAll().where('project_id', '=', projectId);
      if (filter.types) query = query.where('type', 'in', filter.types);
      if (filter.templateId !== undefined) query = query.where('template_id', '=', filter.templateId);
      return query.orderBy('name', order).orderBy('id').execute();
    },
    find(projectId: number, id: number): Promise<InventoryRow | undefined> {
      return db
        .selectFrom('inventory')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insert(row: Omit<InventoryRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'inventory', row);
    },
    async update(
      projectId: number,
      id: number,
      changes: Partial<Omit<InventoryRow, 'id' | 'project_id'>>,
    ): Promise<void> {
      await db.updateTable('inventory').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('inventory').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
  };
}

export type InventoriesRepository = ReturnType<typeof createInventoriesRepository>;
