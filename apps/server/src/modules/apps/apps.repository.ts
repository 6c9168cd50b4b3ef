import type { Db } from '../../db/database.ts';
import type { AppRow } from './apps.table.ts';
import { hasColumnsToSet } from '../../db/row-changes.ts';

export function createAppsRepository(db: Db) {
  return {
    list(): Promise<AppRow[]> {
      return db.selectFrom('app').selectAll().orderBy('priority', 'desc').orderBy('id').execute();
    },
    find(id: string): Promise<AppRow | undefined> {
      return db.selectFrom('app').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insert(row: AppRow): Promise<void> {
      await db.insertInto('app').values(row).execute();
    },
    async update(id: string, changes: Partial<Omit<AppRow, 'id'>>): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await db.updateTable('app').set(changes).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await db.deleteFrom('app').where('id', '=', id).execute();
    },
  };
}

export type AppsRepository = ReturnType<typeof createAppsRepository>;
