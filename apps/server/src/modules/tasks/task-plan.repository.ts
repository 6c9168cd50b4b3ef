import type { Db } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { retryOnConflict } from '../../db/errors.ts';

/** The plan of terraform/OpenTofu tasks; the row goes with its task (foreign key cascade). */
export function createTaskPlanRepository(db: Db) {
  return {
    /** Replaces the task's plan and its counts in one transaction: a resent runner report stores it once. */
    async replace(taskId: number, plan: { resources: string; truncated: boolean; recap: string }): Promise<void> {
      await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const updated = await tryUpdate(
            trx.updateTable('task').set({ plan_recap: plan.recap }).where('id', '=', taskId),
          );
          if (!updated) return;
          await trx.deleteFrom('task_plan').where('task_id', '=', taskId).execute();
          await trx
            .insertInto('task_plan')
            .values({ task_id: taskId, resources: plan.resources, truncated: plan.truncated ? 1 : 0 })
            .execute();
        }),
      );
    },
    find(taskId: number) {
      return db.selectFrom('task_plan').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    },
  };
}

export type TaskPlanRepository = ReturnType<typeof createTaskPlanRepository>;
