import type { Db } from '../db/database.ts';

/** Tables whose `secret` column is sealed: key material, variable group secrets, a task's secret answers. */
const SEALED_TABLES = ['access_key', 'environment_secret', 'task'] as const;

/** Every column that holds a value sealed with the installation's key. */
export function createSecretsRepository(db: Db) {
  return {
    /** Re-seals every stored secret in one transaction; nothing changes if any value fails. */
    async resealAll(reseal: (sealed: string) => string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let count = 0;
        for (const table of SEALED_TABLES) {
          const rows = await trx.selectFrom(table).select(['id', 'secret']).where('secret', 'is not', null).execute();
          for (const row of rows) {
            await trx
              .updateTable(table)
              .set({ secret: reseal(row.secret ?? '') })
              .where('id', '=', row.id)
              .execute();
            count += 1;
          }
        }
        return count;
      });
    },
  };
}
