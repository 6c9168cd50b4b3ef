import type { Dialect } from './database.ts';

/**
 * Locks the selected rows until the transaction ends (SELECT ... FOR UPDATE). SQLite has no row
 * locks and needs none: one process owns the file and runs one transaction at a time.
 */
export function lockForUpdate<Q extends { forUpdate(): Q }>(query: Q, dialect: Dialect): Q {
  return dialect === 'sqlite' ? query : query.forUpdate();
}
