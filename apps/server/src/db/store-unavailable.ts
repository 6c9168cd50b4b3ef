import type { Dialect } from './database.ts';

/** The store cannot be opened (unreachable, refused, bad URL): an operator's problem, told in one line. */
export class StoreUnavailableError extends Error {}

/** The URL as it may be shown: a password in it is masked. */
function describeStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL (a SQLite path), or a URL too broken to parse: show no more than its scheme.
    return /^[a-z]+:\/\//i.test(url) ? `${url.split('://')[0]}://…` : url;
  }
}

function describeCause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeCause(error.errors[0]);
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : String(error);
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

export function storeUnavailable(dialect: Dialect, url: string, error: unknown): StoreUnavailableError {
  return new StoreUnavailableError(
    `Cannot open the ${dialect} store at ${describeStoreUrl(url)}: ${describeCause(error)}`,
    { cause: error },
  );
}
