import { FINISHED_TASK_STATUSES } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { deleteLogIndexOfTasks, deleteLogIndexRange } from '../../db/log-search-index.ts';
import { deleteCountedTasks } from './tasks.repository.ts';

/** A finished task the retention job may remove, with its log length to delete the log in slices. */
export interface RetentionCandidate {
  id: number;
  output_lines: number;
}

/**
 * The statements of history retention (task-retention.ts). Every one touches finished tasks only and is
 * idempotent, so several nodes may run the job at once.
 */
export function createTaskRetentionRepository(db: Db, dialect: Dialect) {
  return {
    /** Finished tasks that ended (or, never started, were created) before `before`, in id order from `afterId`. */
    listFinishedEndedBefore(before: string, afterId: number, limit: number): Promise<RetentionCandidate[]> {
      return db
        .selectFrom('task')
        .select(['id', 'output_lines'])
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .where((eb) => eb(eb.fn.coalesce('end', 'created'), '<', before))
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** Templates with more than `keep` finished tasks. */
    async listTemplatesWithMoreFinishedThan(keep: number): Promise<number[]> {
      const rows = await db
        .selectFrom('task')
        .select('template_id')
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .groupBy('template_id')
        .having((eb) => eb.fn.countAll(), '>', keep)
        .execute();
      return rows.map((r) => Number(r.template_id));
    },
    /** The id of the template's `keep`-th newest finished task: older finished tasks are beyond the limit. */
    async findOldestKeptFinished(templateId: number, keep: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('task')
        .select('id')
        .where('template_id', '=', templateId)
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .orderBy('id', 'desc')
        .limit(1)
        .offset(keep - 1)
        .executeTakeFirst();
      return row ? Number(row.id) : undefined;
    },
    listFinishedOfTemplateBelow(
      templateId: number,
      belowId: number,
      afterId: number,
      limit: number,
    ): Promise<RetentionCandidate[]> {
      return db
        .selectFrom('task')
        .select(['id', 'output_lines'])
        .where('template_id', '=', templateId)
        .where('status', 'in', [...FINISHED_TASK_STATUSES])
        .where('id', '<', belowId)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** Those of `ids` that a task outside `ids` names as its build. */
    async listBuildsReferencedByOthers(ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('task')
        .select('build_task_id')
        .distinct()
        .where('build_task_id', 'in', ids)
        .where('id', 'not in', ids)
        .execute();
      return rows.map((r) => Number(r.build_task_id));
    },
    async deleteOutputOfTasks(ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await retryOnConflict(() => db.deleteFrom('task_output').where('task_id', 'in', ids).execute());
      await retryOnConflict(() => deleteLogIndexOfTasks(db, dialect, ids));
    },
    /** One slice of a long log, by the (task_id, seq) index, so no single statement removes millions of rows. */
    async deleteOutputRange(taskId: number, fromSeq: number, toSeq: number): Promise<void> {
      await retryOnConflict(() =>
        db
          .deleteFrom('task_output')
          .where('task_id', '=', taskId)
          .where('seq', '>=', fromSeq)
          .where('seq', '<', toSeq)
          .execute(),
      );
      await retryOnConflict(() => deleteLogIndexRange(db, dialect, taskId, fromSeq, toSeq));
    },
    /** Deletes finished tasks (output already gone), detaching the Terraform states they wrote; returns how many went. */
    async deleteFinished(ids: number[]): Promise<number> {
      if (ids.length === 0) return 0;
      await retryOnConflict(() =>
        db.updateTable('terraform_state').set({ task_id: null }).where('task_id', 'in', ids).execute(),
      );
      await retryOnConflict(() => db.deleteFrom('terraform_alias').where('task_id', 'in', ids).execute());
      // Lines a task could not have written after finishing; this also covers any the slices missed.
      await retryOnConflict(() => db.deleteFrom('task_output').where('task_id', 'in', ids).execute());
      await retryOnConflict(() => deleteLogIndexOfTasks(db, dialect, ids));
      return deleteCountedTasks(db, dialect, (query) =>
        query.where('id', 'in', ids).where('status', 'in', [...FINISHED_TASK_STATUSES]),
      );
    },
  };
}

export type TaskRetentionRepository = ReturnType<typeof createTaskRetentionRepository>;
