import type { Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import type { LogLine } from '../../live/live-hub.ts';
import { appendToLockedTask, type OutputRecord } from './task-output.repository.ts';
import type { TaskApprovalRow, TaskRow } from './tasks.table.ts';

type NewDecision = Omit<TaskApprovalRow, 'id' | 'user_id'> & { user_id: number };

/** What a step of a gate does to its task: lines for its log and, when the gate settles, the task's new status. */
export interface GateStep {
  lines: readonly OutputRecord[];
  settle?: Partial<Omit<TaskRow, 'id'>> & { status: 'waiting' | 'rejected' };
}

/** Whether a decision was recorded (with the lines stored and the status set), or why not. */
export type TaskDecisionResult =
  | { recorded: true; stored: LogLine[]; settled: GateStep['settle'] }
  | { recorded: false; why: 'not_waiting' | 'duplicate' };

/** Decisions on tasks that wait for approval, and the tasks whose approval timed out. */
export function createTaskApprovalsRepository(db: Db, dialect: Dialect) {
  /** Tasks waiting for approval whose time in `column` has come, oldest first. */
  const listWaitingDue = (column: 'approval_due' | 'approval_alert', now: string, limit: number): Promise<TaskRow[]> =>
    db
      .selectFrom('task')
      .selectAll()
      .where(column, '<=', now)
      .where('status', '=', 'waiting_approval')
      .orderBy('id')
      .limit(limit)
      .execute();

  /** The task's row, locked for the rest of `trx`, if it still waits for approval. */
  async function lockWaiting(trx: Db, taskId: number): Promise<{ id: number; outputLines: number } | undefined> {
    const task = await lockForUpdate(
      trx.selectFrom('task').select(['status', 'output_lines']).where('id', '=', taskId),
      dialect,
    ).executeTakeFirst();
    return task?.status === 'waiting_approval' ? { id: taskId, outputLines: Number(task.output_lines) } : undefined;
  }

  return {
    listDecisions(taskId: number): Promise<TaskApprovalRow[]> {
      return db.selectFrom('task_approval').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
    },
    /**
     * Records a decision under a lock of the task's row, with what it does (`stepOf` the approvals now
     * counted): its log lines and, when it settles the gate, the task's new status, all in one
     * transaction. Two decisions at once are taken one after the other (the second counts the first),
     * a user decides once, and none lands on a task that has moved on (approved, rejected, timed out,
     * stopped): the first decision to settle the gate is the last one taken.
     */
    recordDecision(decision: NewDecision, stepOf: (approvals: number) => GateStep): Promise<TaskDecisionResult> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx): Promise<TaskDecisionResult> => {
          const task = await lockWaiting(trx, decision.task_id);
          if (!task) return { recorded: false, why: 'not_waiting' };
          const earlier = await trx
            .selectFrom('task_approval')
            .select('id')
            .where('task_id', '=', decision.task_id)
            .where('user_id', '=', decision.user_id)
            .executeTakeFirst();
          if (earlier) return { recorded: false, why: 'duplicate' };
          await insertRow(trx, dialect, 'task_approval', decision);
          const approvals = await trx
            .selectFrom('task_approval')
            .select('id')
            .where('task_id', '=', decision.task_id)
            .where('decision', '=', 'approve')
            .execute();
          const step = stepOf(approvals.length);
          const stored = await appendToLockedTask(trx, dialect, task, step.lines, step.settle);
          return { recorded: true, stored, settled: step.settle };
        }),
      );
    },
    /**
     * Settles the gate of a task still waiting for approval (its time ran out), with the lines saying
     * why, in one transaction; undefined when it no longer waits (a decision or a stop came first).
     */
    settleWaiting(taskId: number, step: GateStep): Promise<LogLine[] | undefined> {
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const task = await lockWaiting(trx, taskId);
          return task ? appendToLockedTask(trx, dialect, task, step.lines, step.settle) : undefined;
        }),
      );
    },
    /** Tasks waiting for approval whose time to decide is over, oldest first. */
    listTimedOut: (now: string, limit: number) => listWaitingDue('approval_due', now, limit),
    /**
     * Takes a timed-out task for this engine by moving its due time to `retryAt`: of several nodes
     * sweeping at once one settles it, and should that one die meanwhile, a sweep after `retryAt` does.
     */
    async claimTimedOut(taskId: number, due: string, retryAt: string): Promise<boolean> {
      return tryUpdate(
        db
          .updateTable('task')
          .set({ approval_due: retryAt })
          .where('id', '=', taskId)
          .where('status', '=', 'waiting_approval')
          .where('approval_due', '=', due),
      );
    },
    /** Tasks waiting for approval whose alert is owed since `now` or before (a crash cut it off), oldest first. */
    listOwedAlerts: (now: string, limit: number) => listWaitingDue('approval_alert', now, limit),
  };
}

export type TaskApprovalsRepository = ReturnType<typeof createTaskApprovalsRepository>;
