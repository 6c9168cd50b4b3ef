import { createHash, randomBytes } from 'node:crypto';

/** A new random bearer secret: 32 bytes, base64url, lower-cased as API clients expect. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url').toLowerCase();
}

/** Only the SHA-256 of a session or API token is stored, so a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
