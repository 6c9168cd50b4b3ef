import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { EnvironmentRow, EnvironmentSecretRow } from './environments.table.ts';

export function createEnvironmentsRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number, order: 'asc' | 'desc'): Promise<EnvironmentRow[]> {
      return db
        .selectFrom('environment')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('name', order)
        .orderBy('id')
        .execute();
    },
    find(projectId: number, id: number): Promise<EnvironmentRow | undefined> {
      return db
        .selectFrom('environment')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insert(row: Omit<EnvironmentRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'environment', row);
    },
    async update(
      projectId: number,
      id: number,
      changes: Partial<Omit<EnvironmentRow, 'id' | 'project_id'>>,
    ): Promise<void> {
      await db
        .updateTable('environment')
        .set(changes)
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .execute();
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('environment').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
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
