import type { DeleteResult, UpdateResult } from 'kysely';

/**
 * Runs an update whose where clause is its condition (still in a status, still at the revision read, not yet
 * claimed) and says whether it changed a row: of several callers racing on one store, only one sees true.
 */
export async function tryUpdate(query: { executeTakeFirst(): Promise<UpdateResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numUpdatedRows) > 0;
}

/** Runs a delete and says whether there was a row to delete. */
export async function tryDelete(query: { executeTakeFirst(): Promise<DeleteResult> }): Promise<boolean> {
  return Number((await query.executeTakeFirst()).numDeletedRows) > 0;
}
