import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';

export function createViewsRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'view');
  return {
    ...rows,
    /** Sets many positions at once, all or nothing. */
    async setPositions(projectId: number, positions: [number, number][]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const inTransaction = projectRows(trx, dialect, 'view');
        for (const [id, position] of positions) await inTransaction.update(projectId, id, { position });
      });
    },
  };
}

export type ViewsRepository = ReturnType<typeof createViewsRepository>;
