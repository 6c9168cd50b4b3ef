import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database.ts';
import { listPendingMigrations } from '../../db/migrate.ts';

/** The store as a whole, for health checks. */
export function createSystemRepository(db: Db, dialect: Dialect) {
  return {
    /** Throws when the store does not answer a trivial query. */
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
    listPendingMigrations: () => listPendingMigrations(db, dialect),
  };
}

export type SystemRepository = ReturnType<typeof createSystemRepository>;
