import type { Db } from '../db/database.ts';

/** Every column that holds a value sealed with the installation's key. */
export function createSecretsRepository(db: Db) {
  return {
    /** Re-seals every stored secret in one transaction; nothing changes if any value fails. */
    async resealAll(reseal: (sealed: string) => string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        let count = 0;
        const keys = await trx
          .selectFrom('access_key')
          .select(['id', 'secret'])
          .where('secret', 'is not', null)
          .execute();
        for (const row of keys) {
          await trx
            .updateTable('access_key')
            .set({ secret: reseal(row.secret ?? '') })
            .where('id', '=', row.id)
            .execute();
          count += 1;
        }
        const variables = await trx.selectFrom('environment_secret').select(['id', 'secret']).execute();
        for (const row of variables) {
          await trx
            .updateTable('environment_secret')
            .set({ secret: reseal(row.secret) })
            .where('id', '=', row.id)
            .execute();
          count += 1;
        }
        const answers = await trx.selectFrom('task').select(['id', 'secret']).where('secret', 'is not', null).execute();
        for (const row of answers) {
          await trx
            .updateTable('task')
            .set({ secret: reseal(row.secret ?? '') })
            .where('id', '=', row.id)
            .execute();
          count += 1;
        }
        return count;
      });
    },
  };
}
