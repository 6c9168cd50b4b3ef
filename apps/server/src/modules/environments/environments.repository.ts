import type { Db, Dialect } from '../../db/database.ts';
import { projectRows } from '../../db/project-rows.ts';
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
    listSecrets(projectId: number, environmentId: number): Promise<EnvironmentSecretRow[]> {
      return db
        .selectFrom('environment_secret')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('environment_id', '=', environmentId)
        .orderBy('type')
        .orderBy('name')
        .execute();
    },
    async insertSecret(row: Omit<EnvironmentSecretRow, 'id'>): Promise<void> {
      await db.insertInto('environment_secret').values(row).execute();
    },
    async updateSecret(projectId: number, environmentId: number, id: number, secret: string): Promise<void> {
      await db
        .updateTable('environment_secret')
        .set({ secret })
        .where('project_id', '=', projectId)
        .where('environment_id', '=', environmentId)
        .where('id', '=', id)
        .execute();
    },
    async deleteSecret(projectId: number, environmentId: number, id: number): Promise<void> {
      await db
        .deleteFrom('environment_secret')
        .where('project_id', '=', projectId)
        .where('environment_id', '=', environmentId)
        .where('id', '=', id)
        .execute();
    },
  };
}

export type EnvironmentsRepository = ReturnType<typeof createEnvironmentsRepository>;
