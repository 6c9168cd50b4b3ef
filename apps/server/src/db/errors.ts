/** Whether a driver error is a unique-constraint violation, on any of the three databases. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errno?: unknown };
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e.code === '23505' ||
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062
  );
}

/**
 * Whether a driver error is a conflict between concurrent transactions that a retry resolves:
 * a deadlock victim or a lock wait timeout (MySQL), a deadlock or serialization failure
 * (PostgreSQL), a busy database (SQLite).
 */
function isTransientConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; errno?: unknown };
  return e.errno === 1213 || e.errno === 1205 || e.code === '40P01' || e.code === '40001' || e.code === 'SQLITE_BUSY';
}

/** Runs a statement again, a few times and after a short pause, when it lost to a concurrent one. */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}

type DriverError = { code?: unknown; errno?: unknown; message?: unknown };

/** A row refers to one that is gone: an insert or update naming a deleted row, or a delete of a row still named. */
function foreignKeyViolation(error: DriverError): 'missing' | 'referenced' | 'either' | undefined {
  if (error.errno === 1452 || error.errno === 1216) return 'missing';
  if (error.errno === 1451 || error.errno === 1217) return 'referenced';
  if (error.code === '23503')
    return typeof error.message === 'string' && error.message.startsWith('update or delete') ? 'referenced' : 'missing';
  if (error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'either';
  return undefined;
}

const CONFLICT_MESSAGES = {
  missing: 'Something this refers to was deleted at the same time; reload and try again',
  referenced: 'Something was made to use this at the same time; reload and try again',
  either: 'This conflicts with a change made at the same time; reload and try again',
} as const;

/**
 * What to tell a caller whose request lost a race inside the store, once the retries are spent: a
 * foreign key that no longer holds (the checks before the write passed, then a concurrent request
 * deleted or took the row), a unique value taken meanwhile, or a deadlock. Undefined for any other error.
 */
export function describeStoreConflict(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const violation = foreignKeyViolation(error as DriverError);
  if (violation) return CONFLICT_MESSAGES[violation];
  if (isUniqueViolation(error) || isTransientConflict(error)) return CONFLICT_MESSAGES.either;
  return undefined;
}
