import type { Db, Dialect } from '../../db/database.ts';
import { tryDelete } from '../../db/conditional-write.ts';
import type { NewUserRow, UserRow, UserRowUpdate } from './users.table.ts';
import { insertRow } from '../../db/insert.ts';

export function createUsersRepository(db: Db, dialect: Dialect) {
  return {
    list(): Promise<UserRow[]> {
      return db.selectFrom('users').selectAll().orderBy('name').orderBy('id').execute();
    },
    findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
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
    insert(row: NewUserRow): Promise<number> {
      return insertRow(db, dialect, 'users', row);
    },
    async update(id: number, changes: UserRowUpdate): Promise<void> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },
    async delete(id: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const deleted = await tryDelete(trx.deleteFrom('users').where('id', '=', id));
        // Their tasks stay, without a user (set null): a per-user stats counter would count tasks nobody has.
        await trx.deleteFrom('task_stat_day').where('user_id', '=', id).execute();
        return deleted;
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
