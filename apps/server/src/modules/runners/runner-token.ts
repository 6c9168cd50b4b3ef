import { randomBytes } from 'node:crypto';

/** A new runner token: shown once, stored only as its hash (secrets/secret-hash.ts). */
export function generateRunnerToken(): string {
  return randomBytes(32).toString('base64url');
}
