import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new runner token: shown once, stored only as its hash. */
export function generateRunnerToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares a presented secret with the expected one in constant time, whatever their lengths. */
export function isSameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(hashRunnerToken(presented), 'hex'), Buffer.from(hashRunnerToken(expected), 'hex'));
}
