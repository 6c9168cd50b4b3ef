import type { ApiToken, LoginBody, LoginOptions } from '@gantry/contract';
import { INCORRECT_LOGIN_MESSAGE } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { ApiTokenRow } from './auth.table.ts';
import type { LdapLogin } from './ldap/ldap-login.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { verifyPassword } from './passwords.ts';
import { generateToken, hashToken } from './secret-tokens.ts';
import { describeAuthMethods } from './totp.service.ts';

interface AuthDeps {
  config: Config;
  clock: Clock;
  auth: AuthRepository;
  users: UsersRepository;
  throttle: LoginThrottle;
  ldap: Pick<LdapLogin, 'enabled' | 'signIn'>;
  /** The second factor a new session of the user must pass first ('' for none). */
  pendingFactorFor(userId: number): Promise<string>;
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
const TOKEN_PREFIX_LENGTH = 8;
/** A session that still awaits its second factor lapses after this long. */
const PENDING_SESSION_MS = 10 * 60_000;

export function createAuthService({ config, clock, auth, users, throttle, ldap, pendingFactorFor }: AuthDeps) {
  const idleMs = config.session_idle_minutes * 60_000;

  function toApiToken(row: ApiTokenRow, secret?: string): ApiToken {
    const now = toTimestamp(clock.now());
    return {
      id: secret ?? row.prefix,
      name: row.name,
      created: row.created,
      expired: row.expired === 1 || (row.expires_at !== null && row.expires_at <= now),
      expires_at: row.expires_at,
      user_id: row.user_id,
    };
  }

  return {
    loginOptions(): LoginOptions {
      const providers = Object.entries(config.oidc_providers)
        .sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0))
        .map(([id, p]) => ({ id, name: p.display_name ?? id, color: p.color ?? '', icon: p.icon ?? '' }));
      return { oidc_providers: providers, login_with_password: !config.password_login_disabled || ldap.enabled, auth_methods: describeAuthMethods(config) };
    },

    /** Checks a username-or-email and password; returns a new session token. */
    async login(body: LoginBody, client: ClientInfo): Promise<string> {
      if (config.password_login_disabled && !ldap.enabled) throw forbidden('Signing in with a password is disabled');
      const attempt = await throttle.reserve({ account: body.auth.toLowerCase(), address: client.ip.slice(0, 64) });
      // The directory is asked first, as Semaphore does; a miss falls back to local passwords unless they are switched off.
      const directoryUser = await ldap.signIn(body.auth, body.password);
      if (directoryUser) {
        await attempt.release();
        return this.createSession(directoryUser.id, client);
      }
      const user = config.password_login_disabled ? undefined : await users.findByLogin(body.auth);
      const usable = user !== undefined && user.external === 0;
      const ok = await verifyPassword(usable ? user.password_hash : null, body.password);
      if (!ok || !user) throw unauthorized(INCORRECT_LOGIN_MESSAGE);
      await attempt.release();
      return this.createSession(user.id, client);
    },

    async createSession(userId: number, client: ClientInfo): Promise<string> {
      const token = generateToken();
      const now = toTimestamp(clock.now());
      await auth.insertSession({
        user_id: userId,
        token_hash: hashToken(token),
        created: now,
        last_active: now,
        expired: 0,
        ip: client.ip.slice(0, 64),
        user_agent: client.userAgent.slice(0, 255),
        pending_factor: await pendingFactorFor(userId),
      });
      return token;
    },

    async logout(sessionToken: string | undefined): Promise<void> {
      if (sessionToken) await auth.expireSession(hashToken(sessionToken));
    },

    /** The session behind a cookie in any state, or undefined when it is unknown, expired or idle too long. */
    async findSession(sessionToken: string): Promise<SessionInfo | undefined> {
      const session = await auth.findActiveSession(hashToken(sessionToken));
      if (!session) return undefined;
      const now = clock.now();
      const idleFor = now.getTime() - Date.parse(session.last_active);
      const pendingTooLong = session.pending_factor !== '' && now.getTime() - Date.parse(session.created) > PENDING_SESSION_MS;
      if (idleFor > idleMs || pendingTooLong) {
        await auth.expireSession(session.token_hash);
        return undefined;
      }
      if (idleFor > TOUCH_INTERVAL_MS) await auth.touchSession(session.id, toTimestamp(now));
      const user = await users.findById(session.user_id);
      // A factor awaited while TOTP was switched off in the configuration is no longer asked for.
      return user ? { id: session.id, user, pendingFactor: config.totp_enabled ? session.pending_factor : '' } : undefined;
    },

    /** The user behind a verified session cookie; undefined too while the session awaits its second factor. */
    async findSessionUser(sessionToken: string): Promise<UserRow | undefined> {
      const session = await this.findSession(sessionToken);
      return session?.pendingFactor === '' ? session.user : undefined;
    },

    /** The user behind an API token, or undefined when the token is unknown, revoked or past its expiry. */
    async findTokenUser(token: string): Promise<UserRow | undefined> {
      const row = await auth.findToken(hashToken(token.trim().toLowerCase()));
      if (!row || toApiToken(row).expired) return undefined;
      return users.findById(row.user_id);
    },

    async listTokens(userId: number): Promise<ApiToken[]> {
      return (await auth.listTokens(userId)).map((row) => toApiToken(row));
    },

    async createToken(userId: number, body: { name?: string | undefined; expires_at?: string | null | undefined } | null | undefined) {
      const expiresAt = body?.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= clock.now().getTime()) throw badRequest('Expiry must be in the future');
      const token = generateToken();
      const row = {
        user_id: userId,
        token_hash: hashToken(token),
        prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
        name: body?.name ?? '',
        created: toTimestamp(clock.now()),
        expires_at: expiresAt ? toTimestamp(expiresAt) : null,
        expired: 0,
      };
      const id = await auth.insertToken(row);
      return toApiToken({ ...row, id }, token);
    },

    async deleteToken(userId: number, tokenOrPrefix: string): Promise<void> {
      const value = tokenOrPrefix.toLowerCase();
      const deleted = await auth.deleteToken(userId, hashToken(value), value.slice(0, TOKEN_PREFIX_LENGTH) === value ? value : '');
      if (!deleted) throw notFound('Token');
    },

    /** Ends every session of a user but the one named (the caller's own, after changing their password). */
    expireUserSessions(userId: number, keepSessionToken?: string): Promise<void> {
      return auth.expireUserSessions(userId, keepSessionToken ? hashToken(keepSessionToken) : '');
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
