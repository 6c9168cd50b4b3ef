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
  /** Which provider vouches for an external user ('ldap', 'oidc:<provider id>'); null for a local user. */
  external_source: string | null;
  /** The provider's own stable id of the identity: an LDAP entry's DN, an OpenID subject. */
  external_subject: string | null;
  alert: number;
  pro: number;
}
export type UserRow = Selectable<UserTable>;
export type NewUserRow = Insertable<UserTable>;
export type UserRowUpdate = Updateable<UserTable>;
