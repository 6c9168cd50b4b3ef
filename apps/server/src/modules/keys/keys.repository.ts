import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { AccessKeyRow } from './keys.table.ts';

export function createKeysRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'access_key');
  return {
    ...rows,
    findByName: (projectId: number, name: string): Promise<AccessKeyRow | undefined> =>
      rows.findWhere(projectId, 'name', name),
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
