import type { Credential } from '../../http/session-cookie.ts';
import type { UserRow } from '../users/users.table.ts';

/** The session types every part of sign-in shares (auth, TOTP, OIDC, the live hub). */

/**
 * A session or API token, named by the hash of its secret: `session:<hash>` or `token:<hash>`. Open
 * websockets remember the one they were opened with, so that they end with it.
 */
export type CredentialKey = `${Credential}:${string}`;

/** One credential ended, or every credential of a user except possibly one. */
export type EndedCredentials = { key: CredentialKey } | { userId: number; except?: CredentialKey };

/** The user behind a credential, and its key. */
export interface Caller {
  user: UserRow;
  key: CredentialKey;
}

/** A live session and its user; `pendingFactor` is '' once the session is verified. */
export interface SessionInfo {
  id: number;
  user: UserRow;
  pendingFactor: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}
