import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { ViewRow } from './views.table.ts';

export function createViewsRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number): Promise<ViewRow[]> {
      return db
        .selectFrom('view')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('position')
        .orderBy('id')
        .execute();
    },
    find(projectId: number, id: number): Promise<ViewRow | undefined> {
      return db
        .selectFrom('view')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insert(row: Omit<ViewRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'view', row);
    },
    async update(projectId: number, id: number, changes: Partial<Omit<ViewRow, 'id' | 'project_id'>>): Promise<void> {
      await db.updateTable('view').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('view').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    /** Sets many positions at once, all or nothing. */
    async setPositions(projectId: number, positions: [number, number][]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [id, position] of positions) {
          await trx
            .updateTable('view')
            .set({ position })
            .where('project_id', '=', projectId)
            .where('id', '=', id)
            .execute();
        }
      });
    },
  };
}

export type ViewsRepository = ReturnType<typeof createViewsRepository>;
