import type { Db, Dialect } from '../../db/database.ts';
import { tryDelete } from '../../db/conditional-write.ts';
import { insertRow } from '../../db/insert.ts';
import { parentRows, projectRows } from '../../db/project-rows.ts';
import type { IntegrationAliasRow, IntegrationRow } from './integrations.table.ts';

type Order = 'asc' | 'desc';

/** Which integration of which project a rule belongs to. */
interface RuleOwner {
  project_id: number;
  integration_id: number;
}
/** A stored rule: its own fields, its owner and its id. */
export type RuleRow<TFields> = TFields & RuleOwner & { id: number };

/** The queries both kinds of rule share, on the rows of one integration scoped by project. */
export interface RuleQueries<TFields> {
  list(projectId: number, integrationId: number, order?: Order): Promise<RuleRow<TFields>[]>;
  find(projectId: number, integrationId: number, id: number): Promise<RuleRow<TFields> | undefined>;
  insert(row: TFields & RuleOwner): Promise<number>;
  update(projectId: number, integrationId: number, id: number, changes: Partial<TFields>): Promise<void>;
  delete(projectId: number, integrationId: number, id: number): Promise<void>;
}

/** Integrations, their aliases, extracted values and matchers. Every query is scoped by project. */
export function createIntegrationsRepository(db: Db, dialect: Dialect) {
  const rows = projectRows(db, dialect, 'integration');
  return {
    ...rows,
    /** Integrations a project-wide alias serves. */
    listSearchable: (projectId: number): Promise<IntegrationRow[]> => rows.listWhere(projectId, 'searchable', 1),
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
      return (
        integrationId === null
          ? query.where('integration_id', 'is', null)
          : query.where('integration_id', '=', integrationId)
      )
        .orderBy('id')
        .execute();
    },
    insertAlias(row: Omit<IntegrationAliasRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'integration_alias', row);
    },
    /** True when a row was deleted. */
    async deleteAlias(projectId: number, integrationId: number | null, id: number): Promise<boolean> {
      const query = db.deleteFrom('integration_alias').where('project_id', '=', projectId).where('id', '=', id);
      const scoped =
        integrationId === null
          ? query.where('integration_id', 'is', null)
          : query.where('integration_id', '=', integrationId);
      return tryDelete(scoped);
    },
    /** The one lookup that is not scoped by project: the public endpoint knows only the alias. */
    findAlias(alias: string): Promise<IntegrationAliasRow | undefined> {
      return db.selectFrom('integration_alias').selectAll().where('alias', '=', alias).executeTakeFirst();
    },

    /** The values each request hands to the task. */
    values: parentRows(db, dialect, 'integration_extract_value', 'integration_id', ['name']),
    /** The conditions a request must meet. */
    matchers: parentRows(db, dialect, 'integration_matcher', 'integration_id', ['name']),
  };
}

export type IntegrationsRepository = ReturnType<typeof createIntegrationsRepository>;
