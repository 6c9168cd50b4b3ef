import type { Insertable } from 'kysely';
import type { Database, Db, Dialect } from './database.ts';

type TableWithId = {
  [K in keyof Database]: Database[K] extends { id: unknown } ? K : never;
}[keyof Database];

/** Inserts one row and returns its new id: RETURNING on SQLite and PostgreSQL, insertId on MySQL. */
export async function insertRow<T extends TableWithId>(
  db: Db,
  dialect: Dialect,
  table: T,
  row: Insertable<Database[T]>,
): Promise<number> {
  // Kysely cannot relate a generic table name to its row type; the signature above keeps callers typed.
  const query = db.insertInto(table).values(row as never);
  if (dialect === 'mysql') {
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  const inserted = (await query.returning('id' as never).executeTakeFirstOrThrow()) as unknown as { id: number };
  return Number(inserted.id);
}
