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
