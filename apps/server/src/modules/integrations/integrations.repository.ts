import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { IntegrationAliasRow, IntegrationExtractValueRow, IntegrationMatcherRow, IntegrationRow } from './integrations.table.ts';

type Order = 'asc' | 'desc';

/** Integrations, their aliases, extracted values and matchers. Every query is scoped by project. */
export function createIntegrationsRepository(db: Db, dialect: Dialect) {
  return {
    list(projectId: number, order: Order): Promise<IntegrationRow[]> {
      return db.selectFrom('integration').selectAll().where('project_id', '=', projectId).orderBy('name', order).orderBy('id').execute();
    },
    find(projectId: number, id: number): Promise<IntegrationRow | undefined> {
      return db.selectFrom('integration').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
    },
    /** Integrations a project-wide alias serves. */
    listSearchable(projectId: number): Promise<IntegrationRow[]> {
      return db.selectFrom('integration').selectAll().where('project_id', '=', projectId).where('searchable', '=', 1).orderBy('id').execute();
    },
    insert(row: Omit<IntegrationRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'integration', row);
    },
    async update(projectId: number, id: number, changes: Partial<Omit<IntegrationRow, 'id' | 'project_id' | 'created'>>): Promise<void> {
      await db.updateTable('integration').set(changes).where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    /** Removes the integration with everything hanging off it; children first, MySQL checks keys row by row. */
    async delete(projectId: number, id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const table of ['integration_alias', 'integration_matcher', 'integration_extract_value'] as const) {
          await trx.deleteFrom(table).where('project_id', '=', projectId).where('integration_id', '=', id).execute();
        }
        await trx.deleteFrom('integration').where('project_id', '=', projectId).where('id', '=', id).execute();
      });
    },

    /** Aliases of one integration, or the project-wide ones when integrationId is null. */
    listAliases(projectId: number, integrationId: number | null): Promise<IntegrationAliasRow[]> {
      const query = db.selectFrom('integration_alias').selectAll().where('project_id', '=', projectId);
      return (integrationId === null ? query.where('integration_id', 'is', null) : query.where('integration_id', '=', integrationId)).orderBy('id').execute();
    },
    insertAlias(row: Omit<IntegrationAliasRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'integration_alias', row);
    },
    /** True when a row was deleted. */
    async deleteAlias(projectId: number, integrationId: number | null, id: number): Promise<boolean> {
      const query = db.deleteFrom('integration_alias').where('project_id', '=', projectId).where('id', '=', id);
      const scoped = integrationId === null ? query.where('integration_id', 'is', null) : query.where('integration_id', '=', integrationId);
      const result = await scoped.executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** The one lookup that is not scoped by project: the public endpoint knows only the alias. */
    findAlias(alias: string): Promise<IntegrationAliasRow | undefined> {
      return db.selectFrom('integration_alias').selectAll().where('alias', '=', alias).executeTakeFirst();
    },

    listValues(projectId: number, integrationId: number, order: Order = 'asc'): Promise<IntegrationExtractValueRow[]> {
      return db
        .selectFrom('integration_extract_value')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('integration_id', '=', integrationId)
        .orderBy('name', order)
        .orderBy('id')
        .execute();
    },
    findValue(projectId: number, integrationId: number, id: number): Promise<IntegrationExtractValueRow | undefined> {
      return db
        .selectFrom('integration_extract_value')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('integration_id', '=', integrationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insertValue(row: Omit<IntegrationExtractValueRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'integration_extract_value', row);
    },
    async updateValue(projectId: number, integrationId: number, id: number, changes: Partial<Omit<IntegrationExtractValueRow, 'id' | 'project_id' | 'integration_id'>>): Promise<void> {
      await db.updateTable('integration_extract_value').set(changes).where('project_id', '=', projectId).where('integration_id', '=', integrationId).where('id', '=', id).execute();
    },
    async deleteValue(projectId: number, integrationId: number, id: number): Promise<void> {
      await db.deleteFrom('integration_extract_value').where('project_id', '=', projectId).where('integration_id', '=', integrationId).where('id', '=', id).execute();
    },

    listMatchers(projectId: number, integrationId: number, order: Order = 'asc'): Promise<IntegrationMatcherRow[]> {
      return db
        .selectFrom('integration_matcher')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('integration_id', '=', integrationId)
        .orderBy('name', order)
        .orderBy('id')
        .execute();
    },
    findMatcher(projectId: number, integrationId: number, id: number): Promise<IntegrationMatcherRow | undefined> {
      return db
        .selectFrom('integration_matcher')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('integration_id', '=', integrationId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    insertMatcher(row: Omit<IntegrationMatcherRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'integration_matcher', row);
    },
    async updateMatcher(projectId: number, integrationId: number, id: number, changes: Partial<Omit<IntegrationMatcherRow, 'id' | 'project_id' | 'integration_id'>>): Promise<void> {
      await db.updateTable('integration_matcher').set(changes).where('project_id', '=', projectId).where('integration_id', '=', integrationId).where('id', '=', id).execute();
    },
    async deleteMatcher(projectId: number, integrationId: number, id: number): Promise<void> {
      await db.deleteFrom('integration_matcher').where('project_id', '=', projectId).where('integration_id', '=', integrationId).where('id', '=', id).execute();
    },
  };
}

export type IntegrationsRepository = ReturnType<typeof createIntegrationsRepository>;
