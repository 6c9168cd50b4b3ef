import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Credential } from '../../http/session-cookie.ts';
import { hashSecret } from '../../secrets/secret-hash.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AuthRepository } from './auth.repository.ts';

/**
 * The session types every part of sign-in shares (auth, TOTP, OIDC, the live hub), and the lookup of
 * a session by its cookie, which both sign-in steps (password, then TOTP) need.
 */

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

/** Sessions are touched at most this often, so reads do not turn into a write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** A session that still awaits its second factor lapses after this long. */
const PENDING_SESSION_MS = 10 * 60_000;

/**
 * Whether a session has run out of time: unused for longer than session_idle_minutes, or older than
 * session_max_age_minutes however busy (a stolen cookie does not last for ever).
 */
export function isSessionOutOfTime(
  session: { created: string; last_active: string },
  now: number,
  config: Pick<Config, 'session_idle_minutes' | 'session_max_age_minutes'>,
): boolean {
  return (
    now - Date.parse(session.last_active) > config.session_idle_minutes * 60_000 ||
    now - Date.parse(session.created) > config.session_max_age_minutes * 60_000
  );
}

export function createSessionLookup({
  config,
  clock,
  auth,
}: {
  config: Pick<Config, 'session_idle_minutes' | 'session_max_age_minutes' | 'totp_enabled'>;
  clock: Clock;
  auth: Pick<AuthRepository, 'findActiveSessionWithUser' | 'expireSession' | 'touchSession'>;
}) {
  return {
    /** The session behind a cookie in any state, or undefined when it is unknown, expired or idle too long. */
    async findSession(sessionToken: string): Promise<SessionInfo | undefined> {
      const found = await auth.findActiveSessionWithUser(hashSecret(sessionToken));
      if (!found) return undefined;
      const { session, user } = found;
      const now = clock.now();
      const idleFor = now.getTime() - Date.parse(session.last_active);
      const pendingTooLong =
        session.pending_factor !== '' && now.getTime() - Date.parse(session.created) > PENDING_SESSION_MS;
      if (isSessionOutOfTime(session, now.getTime(), config) || pendingTooLong) {
        await auth.expireSession(session.token_hash);
        return undefined;
      }
      if (idleFor > TOUCH_INTERVAL_MS) await auth.touchSession(session.id, toTimestamp(now));
      // A factor awaited while TOTP was switched off in the configuration is no longer asked for.
      return { id: session.id, user, pendingFactor: config.totp_enabled ? session.pending_factor : '' };
    },
  };
}

export type SessionLookup = ReturnType<typeof createSessionLookup>;
