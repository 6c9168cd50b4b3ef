import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * A CommonJS dependency loaded at its first use: the database drivers, Redis, mail, LDAP and QR code
 * libraries that an installation may never touch stay out of its start, in time and memory.
 */
export function loadOnDemand<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireFromHere(name) as T);
}
