import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface UserTable {
  id: Generated<number>;
  created: string;
  username: string;
  name: string;
  email: string;
  password_hash: string | null;
  admin: number;
  external: number;
  alert: number;
  pro: number;
}
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserRowUpdate = Updateable<UserTable>;
