import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../secrets/secret-hash.ts';

/** A new random bearer secret: 32 bytes, base64url, lower-cased as API clients expect. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url').toLowerCase();
}

/** The stored hash of an API token as a caller presents it: tokens are lower-case, and compared without case or surrounding space. */
export function hashApiToken(token: string): string {
  return hashSecret(token.trim().toLowerCase());
}
