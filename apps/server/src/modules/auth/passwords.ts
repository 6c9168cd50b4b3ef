import { hash, verify } from '@node-rs/argon2';

// Argon2id with the library defaults (m=19456 KiB, t=2, p=1), OWASP's recommended floor.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified against when a login names no user, so that unknown logins take as long as wrong passwords.
const DECOY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$AySE99lHlMgLZMD9P8Lwjw$tKPNL9ClSiVjklctAeXBPYC391tZzVzdJtGFyybQCwk';

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    const ok = await verify(passwordHash ?? DECOY_HASH, password);
    return ok && passwordHash !== null;
  } catch {
    return false;
  }
}
