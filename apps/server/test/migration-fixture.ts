import type { Db, Dialect } from '../src/db/database.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { migrateUpTo } from '../src/db/migrate.ts';
import { createTestDatabase } from './test-databases.ts';

/**
 * Runs `use` on a new store of `dialect` migrated up to and with `migration`, over one connection (so a
 * session setting holds for all of it); drops the store after.
 */
export async function withStoreMigratedUpTo(
  dialect: Dialect,
  migration: string,
  use: (db: Db) => Promise<void>,
): Promise<void> {
  const database = await createTestDatabase(dialect);
  const { db } = connectDatabase(dialect, database.url, { maxConnections: 1 });
  try {
    await migrateUpTo(db, dialect, migration);
    await use(db);
  } finally {
    await db.destroy();
    await database.drop();
  }
}
