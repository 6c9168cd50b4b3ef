import type { Db } from '../../db/database.ts';
import { retryOnConflict } from '../../db/errors.ts';

/** The outputs tasks published; rows go with their task (foreign key cascade). */
export function createTaskOutputsRepository(db: Db) {
  return {
    /** Replaces what is stored for a task in one transaction: a resent runner report stores it once. */
    async replace(taskId: number, outputs: { name: string; value: string }[]): Promise<void> {
      await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await trx.deleteFrom('task_output_value').where('task_id', '=', taskId).execute();
          if (outputs.length > 0)
            await trx
              .insertInto('task_output_value')
              .values(outputs.map((o) => ({ task_id: taskId, ...o })))
              .execute();
        }),
      );
    },
    list(taskId: number): Promise<{ name: string; value: string }[]> {
      return db
        .selectFrom('task_output_value')
        .select(['name', 'value'])
        .where('task_id', '=', taskId)
        .orderBy('id')
        .execute();
    },
  };
}

export type TaskOutputsRepository = ReturnType<typeof createTaskOutputsRepository>;
