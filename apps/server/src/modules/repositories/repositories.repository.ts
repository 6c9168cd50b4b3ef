import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';
import type { RepositoryRow } from './repositories.table.ts';

export type RepositorySort = 'name' | 'git_url' | 'ssh_key';

export function createRepositoriesRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'repository');
  return {
    ...rows,
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
  };
}

export type RepositoriesRepository = ReturnType<typeof createRepositoriesRepository>;
