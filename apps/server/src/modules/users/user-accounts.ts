import type { UsersRepository } from './users.repository.ts';
import type { UserRow } from './users.table.ts';

/**
 * What other modules may read and change of user accounts: sign-in, external identities, team
 * changes. `onAdminChanged` is told when a group mapping changes someone's administrator flag.
 */
export function createUserAccounts(users: UsersRepository, onAdminChanged: (userId: number, admin: boolean) => void) {
  return {
    findById(id: number): Promise<UserRow | undefined> {
      return users.findById(id);
    },
    /** Looks a user up by username or email, both compared lower-cased. */
    findByLogin(login: string): Promise<UserRow | undefined> {
      return users.findByLogin(login);
    },
    findByExternalIdentity(source: string, subject: string): Promise<UserRow | undefined> {
      return users.findByExternalIdentity(source, subject);
    },
    /** Ties an external user made before identities were recorded to the identity that signs in as it first. */
    async linkExternalIdentity(id: number, source: string, subject: string): Promise<void> {
      await users.update(id, { external_source: source, external_subject: subject });
    },
    /**
     * A user an identity provider vouches for: no password, never an admin until a group mapping says so.
     * Undefined when its username or email is already someone's username or email (checked under the
     * lock every write of sign-in names takes).
     */
    async createExternal(
      identity: { username: string; name: string; email: string; source: string; subject: string },
      created: string,
    ): Promise<UserRow | undefined> {
      const id = await users.withLoginsLocked(async (logins) => {
        if ((await logins.findByLogin(identity.username)) ?? (await logins.findByLogin(identity.email)))
          return undefined;
        return logins.insert({
          created,
          username: identity.username,
          name: identity.name,
          email: identity.email,
          password_hash: null,
          admin: 0,
          external: 1,
          external_source: identity.source,
          external_subject: identity.subject,
          alert: 0,
          pro: 0,
        });
      });
      if (id === undefined) return undefined;
      const user = await users.findById(id);
      if (!user) throw new Error(`External user ${id} vanished after insert`);
      return user;
    },
    async setAdmin(id: number, admin: 0 | 1): Promise<void> {
      await users.update(id, { admin });
      onAdminChanged(id, admin === 1);
    },
  };
}

export type UserAccounts = ReturnType<typeof createUserAccounts>;
