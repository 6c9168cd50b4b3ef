import { ACTIVE_TASK_STATUSES, type TaskStatus } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { insertRow } from '../../db/insert.ts';
import { hasColumnsToSet } from '../../db/row-changes.ts';
import type { RunnerRow } from './runners.table.ts';

/** A started or assigned task of some runner, with what the lost-runner sweep needs to judge it. */
export interface RunnerTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  status: TaskStatus;
  runner_id: number;
  /** Null when the runner no longer exists. */
  runner_name: string | null;
  runner_touched: string | null;
  /** When the runner was first sent the task's job; null while it never was. */
  sent_to_runner: string | null;
}

/** Null project id means the global runners. */
type Scope = number | null;

export function createRunnersRepository(db: Db, dialect: Dialect) {
  function inScope(scope: Scope) {
    const query = db.selectFrom('runner').selectAll();
    return scope === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', scope);
  }

  return {
    list(scope: Scope): Promise<RunnerRow[]> {
      return inScope(scope).orderBy('id').execute();
    },
    find(scope: Scope, id: number): Promise<RunnerRow | undefined> {
      return inScope(scope).where('id', '=', id).executeTakeFirst();
    },
    findById(id: number): Promise<RunnerRow | undefined> {
      return db.selectFrom('runner').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByTokenHash(tokenHash: string): Promise<RunnerRow | undefined> {
      return db.selectFrom('runner').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    listActive(): Promise<RunnerRow[]> {
      return db.selectFrom('runner').selectAll().where('active', '=', 1).orderBy('id').execute();
    },
    insert(row: Omit<RunnerRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'runner', row);
    },
    async update(id: number, changes: Partial<Omit<RunnerRow, 'id'>>): Promise<void> {
      if (!hasColumnsToSet(changes)) return;
      await db.updateTable('runner').set(changes).where('id', '=', id).execute();
    },
    async delete(id: number): Promise<void> {
      await db.deleteFrom('runner').where('id', '=', id).execute();
    },

    /**
     * Notes that the runner is being sent the spec of its task, the first time only, while the task is
     * still this runner's and not started: from then on it may run there, so it never goes back to the queue.
     */
    async markSent(taskId: number, runnerId: number, time: string): Promise<void> {
      await db
        .updateTable('task')
        .set({ sent_to_runner: time })
        .where('id', '=', taskId)
        .where('runner_id', '=', runnerId)
        .where('status', '=', 'starting')
        .where('sent_to_runner', 'is', null)
        .execute();
    },
    /** Unfinished tasks handed to runners (or to one runner), oldest first. */
    listRunnerTasks(runnerId?: number): Promise<RunnerTaskRow[]> {
      let query = db
        .selectFrom('task')
        .leftJoin('runner', 'runner.id', 'task.runner_id')
        .select([
          'task.id',
          'task.project_id',
          'task.template_id',
          'task.status',
          'task.sent_to_runner',
          'runner.name as runner_name',
          'runner.touched as runner_touched',
        ])
        .select((eb) => eb.ref('task.runner_id').$notNull().as('runner_id'))
        .where('task.runner_id', 'is not', null)
        .where('task.status', 'in', [...ACTIVE_TASK_STATUSES]);
      if (runnerId !== undefined) query = query.where('task.runner_id', '=', runnerId);
      return query.orderBy('task.id').execute();
    },
  };
}

export type RunnersRepository = ReturnType<typeof createRunnersRepository>;
