import { createHash, randomBytes } from 'node:crypto';

/** A new random bearer secret: 32 bytes, base64url, lower-cased as API clients expect. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url').toLowerCase();
}

/** Only the SHA-256 of a session or API token is stored, so a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The stored hash of an API token as a caller presents it: tokens are lower-case, and compared without case or surrounding space. */
export function hashApiToken(token: string): string {
  return hashToken(token.trim().toLowerCase());
}
