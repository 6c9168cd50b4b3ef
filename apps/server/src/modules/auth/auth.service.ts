import type { ApiToken, LoginBody, LoginOptions } from '@gantry/contract';
import { INCORRECT_LOGIN_MESSAGE } from '@gantry/contract';
import type { Clock } from '../../clock.ts';
import { toTimestamp } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../errors.ts';
import type { UserAccounts } from '../users/user-accounts.ts';
import type { UserRow } from '../users/users.table.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { ApiTokenRow } from './auth.table.ts';
import type { LdapLogin } from './ldap/ldap-login.ts';
import type { Credential } from '../../http/session-cookie.ts';
import type { Caller, ClientInfo, CredentialKey, EndedCredentials, SessionLookup } from './session.ts';
import { isSessionOutOfTime } from './session.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { assertSessionCredential } from './session-only.ts';
import { verifyPassword } from './passwords.ts';
import { hashSecret } from '../../secrets/secret-hash.ts';
import { generateToken, hashApiToken } from './secret-tokens.ts';
import { describeAuthMethods } from './totp.service.ts';

interface AuthDeps {
  config: Config;
  clock: Clock;
  auth: AuthRepository;
  users: UserAccounts;
  throttle: LoginThrottle;
  sessions: SessionLookup;
  ldap: Pick<LdapLogin, 'enabled' | 'signIn'>;
  /** The second factor a new session of the user must pass first ('' for none). */
  pendingFactorFor(userId: number): Promise<string>;
  /** Sessions or tokens ended: whatever still rides on them (open websockets) must stop. */
  onCredentialsEnded(ended: EndedCredentials): void;
}

const TOKEN_PREFIX_LENGTH = 8;

export function createAuthService({
  config,
  clock,
  auth,
  users,
  throttle,
  sessions,
  ldap,
  pendingFactorFor,
  onCredentialsEnded,
}: AuthDeps) {
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

  /**
   * What the sign-in throttle counts failures against: the account a login names, so that its username,
   * its e-mail address and other spellings share one limit. A login of no local account (a directory
   * user not seen yet, a mistyped name) is counted as the directory compares it: case, surrounding
   * space and look-alike forms (full-width, mathematical letters) folded away.
   */
  async function throttledAccountOf(login: string): Promise<string> {
    const folded = login.normalize('NFKC').trim().toLowerCase();
    const user = await users.findByLogin(folded);
    return user ? `user:${user.id}` : `login:${folded}`;
  }

  return {
    loginOptions(): LoginOptions {
      const providers = Object.entries(config.oidc_providers)
        .sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0))
        .map(([id, p]) => ({ id, name: p.display_name ?? id, color: p.color ?? '', icon: p.icon ?? '' }));
      return {
        oidc_providers: providers,
        login_with_password: !config.password_login_disabled || ldap.enabled,
        auth_methods: describeAuthMethods(config),
      };
    },

    /** Checks a username-or-email and password; returns a new session token. */
    async login(body: LoginBody, client: ClientInfo): Promise<string> {
      if (config.password_login_disabled && !ldap.enabled) throw forbidden('Signing in with a password is disabled');
      const attempt = await throttle.reserve({ account: await throttledAccountOf(body.auth), address: client.ip });
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
        token_hash: hashSecret(token),
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
      if (!sessionToken) return;
      const hash = hashSecret(sessionToken);
      await auth.expireSession(hash);
      onCredentialsEnded({ key: `session:${hash}` });
    },

    /** The session behind a cookie in any state, or undefined when it is unknown, expired or idle too long. */
    findSession: sessions.findSession,

    /** The user behind a verified session cookie; undefined too while the session awaits its second factor. */
    async findSessionUser(sessionToken: string): Promise<UserRow | undefined> {
      const session = await sessions.findSession(sessionToken);
      return session?.pendingFactor === '' ? session.user : undefined;
    },

    /** The user behind an API token, or undefined when the token is unknown, revoked or past its expiry. */
    async findTokenUser(token: string): Promise<UserRow | undefined> {
      const row = await auth.findToken(hashApiToken(token));
      if (!row || toApiToken(row).expired) return undefined;
      return users.findById(row.user_id);
    },

    async listTokens(userId: number, credential: Credential): Promise<ApiToken[]> {
      assertSessionCredential(credential, 'API tokens');
      return (await auth.listTokens(userId)).map((row) => toApiToken(row));
    },

    async createToken(
      userId: number,
      body: { name?: string | undefined; expires_at?: string | null | undefined } | null | undefined,
      credential: Credential,
    ) {
      assertSessionCredential(credential, 'API tokens');
      const expiresAt = body?.expires_at ? new Date(body.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= clock.now().getTime()) throw badRequest('Expiry must be in the future');
      const token = generateToken();
      const row = {
        user_id: userId,
        token_hash: hashSecret(token),
        prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
        name: body?.name ?? '',
        created: toTimestamp(clock.now()),
        expires_at: expiresAt ? toTimestamp(expiresAt) : null,
        expired: 0,
      };
      const id = await auth.insertToken(row);
      return toApiToken({ ...row, id }, token);
    },

    /**
     * Expires one of the user's tokens, named by the id the list shows or by its whole value. A token
     * may expire itself (Semaphore's API documentation ends a token that way, and giving up one's own
     * access is harmless); any other token needs a signed-in session.
     */
    async deleteToken(userId: number, tokenOrPrefix: string, callerToken: string | undefined): Promise<void> {
      const value = tokenOrPrefix.toLowerCase();
      const row = await auth.findUserToken(
        userId,
        hashSecret(value),
        value.slice(0, TOKEN_PREFIX_LENGTH) === value ? value : '',
      );
      const expiresItself =
        callerToken !== undefined && row !== undefined && hashApiToken(callerToken) === row.token_hash;
      if (!expiresItself) assertSessionCredential(callerToken === undefined ? 'session' : 'token', 'API tokens');
      if (!row) throw notFound('Token');
      await auth.deleteToken(row.id);
      onCredentialsEnded({ key: `token:${row.token_hash}` });
    },

    /**
     * Checks a signed-in user's own password before a change to their password or email. Wrong
     * guesses count against the same limits as sign-ins, so a stolen session or token cannot be used
     * to try passwords faster than the sign-in form allows.
     */
    async verifyCurrentPassword(user: UserRow, password: string): Promise<boolean> {
      const attempt = await throttle.reserve({ account: `current-password:${user.id}` });
      if (!(await verifyPassword(user.password_hash, password))) return false;
      await attempt.release();
      return true;
    },

    /**
     * After a password change: ends every API token of the user and every session but the one named
     * (the caller's own, when they changed their own password), since any of them may be what leaked.
     */
    async endCredentialsAfterPasswordChange(userId: number, keepSessionToken?: string): Promise<void> {
      const keep = keepSessionToken ? hashSecret(keepSessionToken) : '';
      await auth.expireUserSessions(userId, keep);
      await auth.expireUserTokens(userId);
      onCredentialsEnded({ userId, ...(keep ? { except: `session:${keep}` as const } : {}) });
    },

    /** The caller behind a bearer token or else a session cookie, as the router resolves them. */
    async findCaller(bearer: string | undefined, sessionToken: string | undefined): Promise<Caller | undefined> {
      if (bearer) {
        const user = await this.findTokenUser(bearer);
        return user ? { user, key: `token:${hashApiToken(bearer)}` } : undefined;
      }
      if (!sessionToken) return undefined;
      const user = await this.findSessionUser(sessionToken);
      return user ? { user, key: `session:${hashSecret(sessionToken)}` } : undefined;
    },

    /**
     * The current user row behind a credential key while it is still valid, without touching the
     * session: a watching websocket must not keep an idle session alive.
     */
    async findLiveCredentialUser(key: CredentialKey): Promise<UserRow | undefined> {
      const separator = key.indexOf(':');
      const kind = key.slice(0, separator);
      const hash = key.slice(separator + 1);
      if (kind === 'token') {
        const row = await auth.findToken(hash);
        return row && !toApiToken(row).expired ? users.findById(row.user_id) : undefined;
      }
      const found = await auth.findActiveSessionWithUser(hash);
      if (
        !found ||
        (config.totp_enabled && found.session.pending_factor !== '') ||
        isSessionOutOfTime(found.session, clock.now().getTime(), config)
      )
        return undefined;
      return found.user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
