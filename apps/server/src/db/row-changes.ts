/**
 * Whether an update has a column to set. Kysely leaves undefined values out, and an UPDATE that sets
 * nothing is a syntax error on every dialect: a change with nothing in it (a PUT of `{}`) must not reach
 * the store, as changing nothing is done already.
 */
export function hasColumnsToSet(changes: object): boolean {
  return Object.values(changes).some((value) => value !== undefined);
}
