import type { Generated, Selectable } from 'kysely';

export interface SessionTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created: string;
  last_active: string;
  expired: number;
  ip: string;
  user_agent: string;
  /** '' once verified; else the second factor the session still awaits ('totp' or 'totp_enroll'). */
  pending_factor: string;
}
export type SessionRow = Selectable<SessionTable>;

export interface ApiTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  prefix: string;
  name: string;
  created: string;
  expires_at: string | null;
  expired: number;
}
export type ApiTokenRow = Selectable<ApiTokenTable>;

export interface LoginAttemptTable {
  id: Generated<number>;
  /** The client address the attempt came from. */
  address: string;
  /** The login name tried, lower-cased (or another counted subject, such as a user's second factor). */
  account: string;
  attempted: string;
}
