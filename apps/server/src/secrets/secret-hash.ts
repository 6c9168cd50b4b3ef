import { createHash, timingSafeEqual } from 'node:crypto';

/** The one way Gantry hashes a bearer secret it keeps (session, API and runner tokens, Terraform task passwords): SHA-256, hex. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares a presented secret with the expected one in constant time, whatever their lengths: both are hashed first. */
export function isSameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(presented), 'hex'), Buffer.from(hashSecret(expected), 'hex'));
}
