import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { AccessKeyRow } from './keys.table.ts';

export function createKeysRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number, sort: 'name' | 'type', order: 'asc' | 'desc'): Promise<AccessKeyRow[]> {
      return db
        .selectFrom('access_key')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy(sort, order)
        .orderBy('id')
        .execute();
    },
    find(projectId: number, id: number): Promise<AccessKeyRow | undefined> {
      return db
        .selectFrom('access_key')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findByName(projectId: number, name: string): Promise<AccessKeyRow | undefined> {
      return db
        .selectFrom('access_key')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('name', '=', name)
        .orderBy('id')
        .executeTakeFirst();
    },
    insert(row: Omit<AccessKeyRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'access_key', row);
    },
    async update(
      projectId: number,
      id: number,
      changes: Partial<Omit<AccessKeyRow, 'id' | 'project_id'>>,
    ): Promise<void> {
      await db
        .updateTable('access_key')
        .set(changes)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('access_key').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
