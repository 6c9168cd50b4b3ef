import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** Encrypts secrets at rest with AES-256-GCM; each value gets its own random nonce. */
export function createSecretBox(key: Buffer) {
  if (key.length !== 32) throw new Error('The secret encryption key must be 32 bytes');
  return {
    seal(plaintext: string): string {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64')}`;
    },
    open(sealed: string): string {
      const [version, payload] = sealed.split(':', 2);
      if (version !== VERSION || payload === undefined) throw new Error('Unknown secret format');
      const raw = Buffer.from(payload, 'base64');
      const nonce = raw.subarray(0, NONCE_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const decipher = createDecipheriv(ALGORITHM, key, nonce);
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
    /** A key of its own for one purpose (signing the nodes' messages to each other), derived from this one. */
    deriveKey(purpose: string): Buffer {
      return createHmac('sha256', key).update(`gantry:${purpose}`).digest();
    },
  };
}

export type SecretBox = ReturnType<typeof createSecretBox>;
