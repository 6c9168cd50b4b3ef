import type { Generated, Selectable } from 'kysely';

export interface UserTotpTable {
  id: Generated<number>;
  user_id: number;
  created: string;
  /** Sealed with the secret box; opened only to check a passcode. */
  secret: string;
  recovery_hash: string | null;
  confirmed: number;
  /** The last accepted TOTP time step (unix seconds / 30); a code of that step or earlier is refused. */
  last_used_step: number | null;
}
export type UserTotpRow = Selectable<UserTotpTable>;
