import type { Db } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import type { OwedAlertStore } from './owed-alert.ts';

/**
 * The owed approval alert of one task or one workflow approval step (their `approval_alert` column,
 * migration 0025): claimed only while the row still waits for approval.
 */
export function owedAlertStoreOf(db: Db, table: 'task' | 'workflow_step_run', id: number): OwedAlertStore {
  return {
    async claim(owed, lease) {
      return tryUpdate(
        db
          .updateTable(table)
          .set({ approval_alert: lease })
          .where('id', '=', id)
          .where('status', '=', 'waiting_approval')
          .where('approval_alert', '=', owed),
      );
    },
    async clear(lease) {
      await db
        .updateTable(table)
        .set({ approval_alert: null })
        .where('id', '=', id)
        .where('approval_alert', '=', lease)
        .execute();
    },
  };
}
