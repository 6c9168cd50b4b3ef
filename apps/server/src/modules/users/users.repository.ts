import type { Db, Dialect } from '../../db/database.ts';
import { tryDelete } from '../../db/conditional-write.ts';
import type { NewUserRow, UserRow, UserRowUpdate } from './users.table.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import { withNamedLock } from '../../db/named-lock.ts';
import { hasColumnsToSet } from '../../db/row-changes.ts';

/** What reads and writes sign-in names: on the database, or inside a transaction holding the logins lock. */
function createLoginStore(db: Db, dialect: Dialect) {
  return {
    /** Looks a user up by username or email, both stored lower-cased. */
    findByLogin(login: string): Promise<UserRow | undefined> {
      const key = login.toLowerCase();
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb('username', '=', key), eb('email', '=', key)]))
        .orderBy('id')
        .executeTakeFirst();
    },
    /**
     * Whether a user other than `exceptId` has `value` (lower-cased, as sign-in compares it) in `column`:
     * sign-in takes a username or an email for either, so neither may be another user's other one.
     */
    async isLoginOfAnother(column: 'username' | 'email', value: string, exceptId?: number): Promise<boolean> {
      let query = db.selectFrom('users').select('id').where(column, '=', value.toLowerCase());
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },
    insert(row: NewUserRow): Promise<number> {
      return insertRow(db, dialect, 'users', row);
    },
    async update(id: number, changes: UserRowUpdate): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },
  };
}

export type LoginStore = ReturnType<typeof createLoginStore>;

/** Taken by every write of a username or an email, so what a check read of other users holds until the write. */
const LOGINS_LOCK = 'gantry:user-logins';

export function createUsersRepository(db: Db, dialect: Dialect) {
  return {
    ...createLoginStore(db, dialect),
    /** Runs `work` in a transaction that no other write of sign-in names runs beside. */
    withLoginsLocked<T>(work: (logins: LoginStore) => Promise<T>): Promise<T> {
      return withNamedLock(db, dialect, LOGINS_LOCK, (trx) => work(createLoginStore(trx, dialect)));
    },
    list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('name').orderBy('id').execute();
    },
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The external user an identity provider's subject belongs to. */
    findByExternalIdentity(source: string, subject: string): Promise<UserRow | undefined> {
      const identity = { external_source: source, external_subject: subject };
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.and(identity))
        .executeTakeFirst();
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * Deletes the user unless they are the only owner of a project, which would be left without one: then
     * nothing is deleted and the names of those projects come back. The user's row and the rows of their
     * projects are locked first (as a team change locks its project's), so another owner leaving at the same
     * time is taken before or after the check and the delete, never between them.
     */
    deleteUnlessSoleOwner(id: number): Promise<{ deleted: boolean; soleOwnerOf: string[] }> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const user = await lockForUpdate(
            trx.selectFrom('users').select('id').where('id', '=', id),
            dialect,
          ).executeTakeFirst();
          if (!user) return { deleted: false, soleOwnerOf: [] };
          // With the user's row locked, nobody can make them a member of another project meanwhile.
          const memberOf = trx.selectFrom('project_user').select('project_id').where('user_id', '=', id);
          await lockForUpdate(
            trx.selectFrom('project').select('id').where('id', 'in', memberOf).orderBy('id'),
            dialect,
          ).execute();
          // A locking read reads what a team change before committed, even where a transaction otherwise
          // reads from an older snapshot (MySQL's repeatable read).
          const owners = await lockForUpdate(
            trx
              .selectFrom('project_user')
              .innerJoin('project', 'project.id', 'project_user.project_id')
              .select(['project.id', 'project.name', 'project_user.user_id'])
              .where('project_user.project_id', 'in', memberOf)
              .where('project_user.role', '=', 'owner')
              .orderBy('project.name')
              .orderBy('project.id'),
            dialect,
          ).execute();
          const soleOwnerOf = owners
            .filter((row) => row.user_id === id && owners.filter((other) => other.id === row.id).length === 1)
            .map((row) => row.name);
          if (soleOwnerOf.length > 0) return { deleted: false, soleOwnerOf };
          const deleted = await tryDelete(trx.deleteFrom('users').where('id', '=', id));
          // Their tasks stay, without a user (set null): a per-user stats counter would count tasks nobody has.
          await trx.deleteFrom('task_stat_day').where('user_id', '=', id).execute();
          return { deleted, soleOwnerOf: [] };
        }),
      );
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
