import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { insertRow } from '../../db/insert.ts';
import type { UserTotpRow } from './totp.table.ts';

export function createTotpRepository(db: Db, dialect: Dialect) {
  return {
    findByUser(userId: number): Promise<UserTotpRow | undefined> {
      return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },
    insert(row: Omit<UserTotpRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'user_totp', row);
    },
    async deleteByUser(userId: number): Promise<void> {
      await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    },
    async confirm(id: number, step: number): Promise<void> {
      await db.updateTable('user_totp').set({ confirmed: 1, last_used_step: step }).where('id', '=', id).execute();
    },
    /**
     * Records `step` as used unless it (or a later one) already was. One conditional UPDATE, so two
     * requests racing with the same code cannot both win.
     */
    async claimStep(id: number, step: number): Promise<boolean> {
      return tryUpdate(
        db
          .updateTable('user_totp')
          .set({ last_used_step: step })
          .where('id', '=', id)
          .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)])),
      );
    },
    async setSessionPendingFactor(sessionId: number, pendingFactor: string): Promise<void> {
      await db.updateTable('session').set({ pending_factor: pendingFactor }).where('id', '=', sessionId).execute();
    },
  };
}

export type TotpRepository = ReturnType<typeof createTotpRepository>;
