import { z } from 'zod';
import type { SecretBox } from '../../../secrets/secret-box.ts';
import { describeUnstorableText } from '../../../db/storable-text.ts';

export const OIDC_FLOW_COOKIE = 'gantry_oidc';
export const OIDC_FLOW_COOKIE_PATH = '/api/auth/oidc';
/** How long a user may spend at the provider before the sign-in must start over. */
export const OIDC_FLOW_TTL_MS = 10 * 60_000;

/** What the login step remembers for its callback. Sealed (encrypted and authenticated) in a cookie, so any server of a cluster can finish the flow. */
const OidcFlow = z.object({
  provider: z.string(),
  state: z.string(),
  nonce: z.string(),
  verifier: z.string(),
  redirectUri: z.string(),
  returnPath: z.string(),
  expiresAt: z.number(),
});
export type OidcFlow = z.infer<typeof OidcFlow>;

export function sealFlow(secrets: SecretBox, flow: OidcFlow): string {
  return secrets.seal(JSON.stringify(flow));
}

export function openFlow(secrets: SecretBox, sealed: string | undefined): OidcFlow | undefined {
  if (!sealed) return undefined;
  try {
    const parsed = OidcFlow.safeParse(JSON.parse(secrets.open(sealed)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Remembers the states already used until they expire, so a captured callback URL and cookie
 * cannot sign in a second time even before the provider refuses the spent code.
 */
export function createSpentStates(now: () => number) {
  const spent = new Map<string, number>();
  return {
    /** Marks the state spent; false when it had already been spent. */
    spend(state: string, expiresAt: number): boolean {
      const time = now();
      for (const [key, expiry] of spent) if (expiry <= time) spent.delete(key);
      if (spent.has(state)) return false;
      spent.set(state, expiresAt);
      return true;
    },
  };
}

/**
 * Only a path on this site may be the landing place after sign-in; anything else (another host,
 * a protocol-relative `//host`, a backslash trick) lands on the home page. It ends up in a Location
 * header, which holds ASCII only: other characters (and spaces) are percent-encoded.
 */
export function toSafeReturnPath(candidate: string | undefined): string {
  if (!candidate) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(candidate) || describeUnstorableText(candidate, 'path')) return '/';
  if (candidate.startsWith('/api/') || candidate === '/auth/login' || candidate.startsWith('/auth/login?')) return '/';
  return candidate.replace(/[^\u0021-\u007e]/gu, (character) => encodeURIComponent(character));
}
