import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { RepositoryRow } from './repositories.table.ts';

export type RepositorySort = 'name' | 'git_url' | 'ssh_key';

export function createRepositoriesRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number, sort: RepositorySort, order: 'asc' | 'desc'): Promise<RepositoryRow[]> {
      const column = sort === 'ssh_key' ? 'access_key.name' : (`repository.${sort}` as const);
      return db
        .selectFrom('repository')
        .leftJoin('access_key', 'access_key.id', 'repository.ssh_key_id')
        .selectAll('repository')
        .where('repository.project_id', '=', projectId)
        .orderBy(column, order)
        .orderBy('repository.id')
        .execute();
    },
    find(projectId: number, id: number): Promise<RepositoryRow | undefined> {
      return db
        .selectFrom('repository')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insert(row: Omit<RepositoryRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'repository', row);
    },
    async update(
      projectId: number,
      id: number,
      changes: Partial<Omit<RepositoryRow, 'id' | 'project_id'>>,
    ): Promise<void> {
      await db
        .updateTable('repository')
        .set(changes)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('repository').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
  };
}

export type RepositoriesRepository = ReturnType<typeof createRepositoriesRepository>;
