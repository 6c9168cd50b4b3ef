import { randomBytes } from 'node:crypto';

/**
 * What the public endpoints that no session guards (integration webhooks, the Terraform state backend)
 * check callers with.
 */

/** 32 URL-safe characters (192 random bits): an alias in a public URL must not be guessable. */
export const generateAlias = (): string => randomBytes(24).toString('base64url');

/** The login and password of an `Authorization: Basic ...` header; undefined when it is missing or malformed. */
export function readBasicCredentials(header: string | undefined): { login: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
