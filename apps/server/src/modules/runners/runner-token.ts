import { createHash, randomBytes } from 'node:crypto';

/** A new runner token: shown once, stored only as its hash. */
export function generateRunnerToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
