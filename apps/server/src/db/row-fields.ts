/**
 * What row mappers share: the columns that go on the wire as they are stored, and the 0/1 columns
 * (the store has no boolean type on every dialect) that go as booleans.
 */

/** The columns `keys` of a row, unchanged. */
export function columnsOf<R, K extends keyof R>(row: R, keys: readonly K[]): Pick<R, K> {
  const picked = {} as Pick<R, K>;
  for (const key of keys) picked[key] = row[key];
  return picked;
}

/** The 0/1 columns `keys` of a row as booleans (1 is true). */
export function flagsOf<R extends Record<K, number>, K extends keyof R>(
  row: R,
  keys: readonly K[],
): Record<K, boolean> {
  const flags = {} as Record<K, boolean>;
  for (const key of keys) flags[key] = row[key] === 1;
  return flags;
}

/** A JSON column read with its contract schema; null when empty, or a value this version cannot read. */
export function readJsonColumn<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  text: string | null,
): T | null {
  if (!text) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * A stored task_params object as it goes on the wire: null when it is empty, as Semaphore sends an
 * unset one, since its clients (the Terraform provider) read an empty object as parameters someone set.
 */
export function taskParamsOf(text: string): Record<string, unknown> | null {
  const params = JSON.parse(text) as Record<string, unknown>;
  return Object.keys(params).length === 0 ? null : params;
}
