import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const KEY_FILE_NAME = 'gantry.key';

function decodeKey(text: string, source: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes in base64 (e.g. from: openssl rand -base64 32)`);
  return key;
}

/**
 * The key that encrypts secrets at rest: the configured one, else the key file in the data
 * directory, created (mode 0600) on first start. Losing it makes stored secrets unreadable.
 */
export function loadEncryptionKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return decodeKey(configured, 'GANTRY_ACCESS_KEY_ENCRYPTION');
  const file = path.join(dataDir, KEY_FILE_NAME);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A key file from an older installation may have been created readable by others.
  chmodSync(file, 0o600);
  return decodeKey(readFileSync(file, 'utf8'), file);
}
