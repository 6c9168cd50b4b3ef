import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import type { UserRow } from '../users/users.table.ts';
import type { ApiTokenRow, LoginAttemptTable, SessionRow } from './auth.table.ts';

type SessionState = Pick<SessionRow, 'id' | 'token_hash' | 'created' | 'last_active' | 'pending_factor'>;

export function createAuthRepository(db: Db, dialect: Dialect) {
  return {
    insertSession(row: Omit<SessionRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'session', row);
    },
    /** An active session with its user in one round trip: every signed-in request reads both. */
    async findActiveSessionWithUser(tokenHash: string): Promise<{ session: SessionState; user: UserRow } | undefined> {
      const row = await db
        .selectFrom('session')
        .innerJoin('users', 'users.id', 'session.user_id')
        .selectAll('users')
        .select([
          'session.id as session_id',
          'session.created as session_created',
          'session.last_active as session_last_active',
          'session.pending_factor as session_pending_factor',
        ])
        .where('session.token_hash', '=', tokenHash)
        .where('session.expired', '=', 0)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_id, session_created, session_last_active, session_pending_factor, ...user } = row;
      return {
        session: {
          id: session_id,
          token_hash: tokenHash,
          created: session_created,
          last_active: session_last_active,
          pending_factor: session_pending_factor,
        },
        user,
      };
    },
    async touchSession(id: number, lastActive: string): Promise<void> {
      await db.updateTable('session').set({ last_active: lastActive }).where('id', '=', id).execute();
    },
    async expireSession(tokenHash: string): Promise<void> {
      await db.updateTable('session').set({ expired: 1 }).where('token_hash', '=', tokenHash).execute();
    },
    async expireUserSessions(userId: number, exceptTokenHash = ''): Promise<void> {
      await db
        .updateTable('session')
        .set({ expired: 1 })
        .where('user_id', '=', userId)
        .where('token_hash', '!=', exceptTokenHash)
        .execute();
    },
    insertToken(row: Omit<ApiTokenRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'api_token', row);
    },
    findToken(tokenHash: string): Promise<ApiTokenRow | undefined> {
      return db.selectFrom('api_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    listTokens(userId: number): Promise<ApiTokenRow[]> {
      return db.selectFrom('api_token').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    },
    /** The caller's token named by its full secret or its listed prefix. */
    findUserToken(userId: number, tokenHash: string, prefix: string): Promise<ApiTokenRow | undefined> {
      return db
        .selectFrom('api_token')
        .selectAll()
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('token_hash', '=', tokenHash), eb('prefix', '=', prefix)]))
        .orderBy('id')
        .executeTakeFirst();
    },
    async deleteToken(id: number): Promise<void> {
      await db.deleteFrom('api_token').where('id', '=', id).execute();
    },
    async expireUserTokens(userId: number): Promise<void> {
      await db.updateTable('api_token').set({ expired: 1 }).where('user_id', '=', userId).execute();
    },
    insertLoginAttempt(row: Omit<LoginAttemptTable, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'login_attempt', row);
    },
    async deleteLoginAttempt(id: number): Promise<void> {
      await db.deleteFrom('login_attempt').where('id', '=', id).execute();
    },
    /**
     * Times of the newest attempts since a moment, newest first, other than the one named: from one
     * address, and for one account from it when an account is given.
     */
    async listRecentAttempts(filter: {
      address: string;
      account?: string;
      since: string;
      exceptId: number;
      limit: number;
    }): Promise<string[]> {
      let query = db
        .selectFrom('login_attempt')
        .select('attempted')
        .where('address', '=', filter.address)
        .where('attempted', '>', filter.since)
        .where('id', '!=', filter.exceptId);
      if (filter.account !== undefined) query = query.where('account', '=', filter.account);
      const rows = await query.orderBy('attempted', 'desc').limit(filter.limit).execute();
      return rows.map((r) => r.attempted);
    },
    async deleteLoginAttemptsBefore(cutoff: string): Promise<void> {
      await db.deleteFrom('login_attempt').where('attempted', '<=', cutoff).execute();
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
