import type { Db, Dialect } from '../../db/database.ts';
import { parentRows, projectRows } from '../../db/project-rows.ts';
import type { EnvironmentSecretRow } from './environments.table.ts';

export function createEnvironmentsRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'environment');
  return {
    ...rows,
    /** Every variable group's secrets (names and types; values stay sealed), for the list in one query. */
    listProjectSecrets(projectId: number): Promise<EnvironmentSecretRow[]> {
      return db
        .selectFrom('environment_secret')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('type')
        .orderBy('name')
        .execute();
    },
    /** A variable group's secrets, by type and name. */
    secrets: parentRows(db, dialect, 'environment_secret', 'environment_id', ['type', 'name']),
  };
}

export type EnvironmentsRepository = ReturnType<typeof createEnvironmentsRepository>;
