import { sql, type Transaction } from 'kysely';
import type { Database, Db, Dialect } from './database.ts';

/** How long a caller waits for a named lock before giving up with an error. */
const LOCK_WAIT_SECONDS = 30;

/**
 * Runs `work` in a transaction while holding the lock `name`, which one transaction at a time holds on
 * every node of a cluster: for a rule no unique index can keep, such as a check that reads rows another
 * writer is about to add. The lock is taken before the transaction reads anything, so `work` sees what
 * the previous holder committed. SQLite needs no lock: one process owns the file and runs one
 * transaction at a time.
 */
export async function withNamedLock<T>(
  db: Db,
  dialect: Dialect,
  name: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (dialect === 'sqlite') return db.transaction().execute(work);
  if (dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      // Released by the end of the transaction, whether it commits or not.
      await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
      return work(trx);
    });
  }
  // MySQL's named locks belong to a connection, not a transaction: taken before it begins and released
  // after it ends, on the same connection.
  return db.connection().execute(async (connection) => {
    const taken = await sql<{ taken: number | null }>`select get_lock(${name}, ${LOCK_WAIT_SECONDS}) as taken`.execute(
      connection,
    );
    if (Number(taken.rows[0]?.taken) !== 1) throw new Error(`Timed out waiting for the lock ${name}`);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await sql`select release_lock(${name})`.execute(connection);
    }
  });
}
