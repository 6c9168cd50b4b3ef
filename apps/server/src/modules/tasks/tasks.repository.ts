import {
  ACTIVE_TASK_STATUSES,
  FINISHED_TASK_STATUSES,
  TASK_STATUS_RULES,
  UNSTARTED_TASK_STATUSES,
  isTaskFinished,
  type TaskStatOutcome,
  type TaskStatus,
} from '@gantry/contract';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Db, Dialect } from '../../db/database.ts';
import { tryUpdate } from '../../db/conditional-write.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import { projectRows } from '../../db/project-rows.ts';
import { lockForUpdate } from '../../db/row-lock.ts';
import { addTaskStatCounts } from '../../db/task-stat-counts.ts';
import { ALL_USERS, countStatDeltas } from './task-stat-deltas.ts';
import { readDayStatusCounts, type DayStatusCounts } from './stats-days.ts';
import type { QueuedTaskRow, StartedTaskCount, StartedTaskRow, TaskRow } from './tasks.table.ts';

/** The finished statuses the stats chart counts under an outcome (a rejected plan counts as stopped). */
const statusesCountedAs = (outcome: TaskStatOutcome) =>
  FINISHED_TASK_STATUSES.filter((status) => TASK_STATUS_RULES[status].statOutcome === outcome);

export interface TaskListRow extends TaskRow {
  tpl_alias: string;
  tpl_playbook: string;
  tpl_type: string;
  tpl_app: string;
  user_name: string | null;
}

export interface ActiveTaskRow extends StartedTaskRow {
  runner_name: string | null;
  project_name: string;
  username: string | null;
}

const COUNTED_COLUMNS = ['id', 'project_id', 'template_id', 'user_id', 'created', 'status'] as const;
type CountedTasksQuery = SelectQueryBuilder<Database, 'task', Pick<TaskRow, (typeof COUNTED_COLUMNS)[number]>>;

/**
 * Deletes the tasks `narrow` picks (their rows locked for the delete) and takes the finished ones out of the
 * per-day stats, in one transaction; returns how many went.
 */
export async function deleteCountedTasks(
  db: Db,
  dialect: Dialect,
  narrow: (query: CountedTasksQuery) => CountedTasksQuery,
): Promise<number> {
  return retryOnConflict(() =>
    db.transaction().execute(async (trx) => {
      const doomed = await lockForUpdate(narrow(trx.selectFrom('task').select(COUNTED_COLUMNS)), dialect).execute();
      if (doomed.length === 0) return 0;
      const result = await trx
        .deleteFrom('task')
        .where(
          'id',
          'in',
          doomed.map((t) => t.id),
        )
        .executeTakeFirst();
      await addTaskStatCounts(trx, dialect, countStatDeltas(doomed.map((task) => ({ task, sign: -1 as const }))));
      return Number(result.numDeletedRows);
    }),
  );
}

/** Tasks with their template's name, playbook, type and app and their user's name: the rows of a TaskListRow. */
function selectWithTemplate(db: Db) {
  return db
    .selectFrom('task')
    .innerJoin('template', 'template.id', 'task.template_id')
    .leftJoin('users', 'users.id', 'task.user_id')
    .selectAll('task')
    .select([
      'template.name as tpl_alias',
      'template.playbook as tpl_playbook',
      'template.type as tpl_type',
      'template.app as tpl_app',
      'users.name as user_name',
    ]);
}

/** The project's tasks of these ids, with their templates (no order). */
export function selectTasksWithTemplates(db: Db, projectId: number, ids: readonly number[]) {
  return selectWithTemplate(db).where('task.project_id', '=', projectId).where('task.id', 'in', ids);
}

export function createTasksRepository(db: Db, dialect: Dialect) {
  const taskRows = projectRows(db, dialect, 'task');

  /**
   * A page of tasks with their templates: the ids first, by the index alone, then their rows. Asked
   * in one statement, PostgreSQL joined from the template and sorted all of its tasks for each page.
   */
  async function selectPage(
    projectId: number,
    page: SelectQueryBuilder<Database, 'task', { id: number }>,
  ): Promise<TaskListRow[]> {
    const ids = (await page.execute()).map((row) => Number(row.id));
    if (ids.length === 0) return [];
    return selectTasksWithTemplates(db, projectId, ids).orderBy('task.id', 'desc').execute();
  }

  return {
    insert(row: Omit<TaskRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'task', row);
    },
    find(projectId: number, id: number): Promise<TaskListRow | undefined> {
      return selectWithTemplate(db)
        .where('task.project_id', '=', projectId)
        .where('task.id', '=', id)
        .executeTakeFirst();
    },
    /** The task a request with this key made in the project, if one did (see task-request-key.ts). */
    async findByRequestKey(projectId: number, requestKey: string): Promise<TaskRow | undefined> {
      return (await taskRows.listWhere(projectId, 'request_key', requestKey, { limit: 1 }))[0];
    },
    findById(id: number): Promise<TaskRow | undefined> {
      return db.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The newest tasks first; `beforeId` continues a page (keyset: the (project_id, id) index, whatever the depth). */
    listForProject(projectId: number, limit: number, beforeId?: number): Promise<TaskListRow[]> {
      let page = db.selectFrom('task').select('id').where('project_id', '=', projectId);
      if (beforeId !== undefined) page = page.where('id', '<', beforeId);
      return selectPage(projectId, page.orderBy('id', 'desc').limit(limit));
    },
    listForTemplate(
      projectId: number,
      templateId: number,
      limit: number,
      options: { status?: TaskStatus | undefined; beforeId?: number | undefined } = {},
    ): Promise<TaskListRow[]> {
      let page = db
        .selectFrom('task')
        .select('id')
        .where('project_id', '=', projectId)
        .where('template_id', '=', templateId);
      if (options.status) page = page.where('status', '=', options.status);
      if (options.beforeId !== undefined) page = page.where('id', '<', options.beforeId);
      return selectPage(projectId, page.orderBy('id', 'desc').limit(limit));
    },
    /** Tasks of the project by id (the builds a page of deploys names), in one query. */
    listByIds(projectId: number, ids: number[]): Promise<TaskRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom('task').selectAll().where('project_id', '=', projectId).where('id', 'in', ids).execute();
    },
    /** The newest task of each given template, for template lists. */
    async listLastPerTemplate(projectId: number, templateIds: number[]): Promise<TaskListRow[]> {
      if (templateIds.length === 0) return [];
      // One index seek per template (max over (template_id, id)), not a scan of all their tasks.
      const newest = db
        .selectFrom('template')
        .select((eb) =>
          eb
            .selectFrom('task')
            .select((inner) => inner.fn.max('task.id').as('id'))
            .whereRef('task.template_id', '=', 'template.id')
            .as('id'),
        )
        .where('template.project_id', '=', projectId)
        .where('template.id', 'in', templateIds);
      const ids = (await newest.execute()).flatMap((row) => (row.id === null ? [] : [Number(row.id)]));
      if (ids.length === 0) return [];
      return selectTasksWithTemplates(db, projectId, ids).execute();
    },
    findLastOfTemplate(templateId: number): Promise<TaskRow | undefined> {
      return db
        .selectFrom('task')
        .selectAll()
        .where('template_id', '=', templateId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    /** Whether a task of the template already ran this commit: a re-run may pin it without choosing code of its own. */
    async hasRunCommit(projectId: number, templateId: number, commitHash: string): Promise<boolean> {
      const query = db
        .selectFrom('task')
        .select('id')
        .where('project_id', '=', projectId)
        .where('template_id', '=', templateId);
      return (await query.where('commit_hash', '=', commitHash).limit(1).executeTakeFirst()) !== undefined;
    },
    /** The queue in order, one page at a time: the dispatcher reads only as far as it can start tasks. */
    listWaiting(afterId: number, limit: number): Promise<QueuedTaskRow[]> {
      return db
        .selectFrom('task')
        .innerJoin('template', 'template.id', 'task.template_id')
        .innerJoin('project', 'project.id', 'task.project_id')
        .select([
          'task.id',
          'task.project_id',
          'task.template_id',
          'template.name as template_name',
          'template.allow_parallel_tasks',
          'project.max_parallel_tasks',
        ])
        .where('task.status', '=', 'waiting')
        .where('task.id', '>', afterId)
        .orderBy('task.id')
        .limit(limit)
        .execute();
    },
    listWaitingInProject(projectId: number, templateId?: number): Promise<TaskRow[]> {
      let query = db.selectFrom('task').selectAll().where('project_id', '=', projectId).where('status', '=', 'waiting');
      if (templateId !== undefined) query = query.where('template_id', '=', templateId);
      return query.orderBy('id').execute();
    },
    /**
     * The started tasks counted by project, template and runner: a few rows however many tasks run.
     * A dispatch round reads this at every wake; reading every started task instead cost each round
     * time in proportion to them, so a server that fell behind fell further behind.
     */
    async countStarted(): Promise<StartedTaskCount[]> {
      const rows = await db
        .selectFrom('task')
        .select(['project_id', 'template_id', 'runner_id'])
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('status', 'in', [...ACTIVE_TASK_STATUSES])
        .groupBy(['project_id', 'template_id', 'runner_id'])
        .execute();
      return rows.map((row) => ({
        project_id: Number(row.project_id),
        template_id: Number(row.template_id),
        runner_id: row.runner_id === null ? null : Number(row.runner_id),
        count: Number(row.count),
      }));
    },
    listStarted(): Promise<StartedTaskRow[]> {
      return db
        .selectFrom('task')
        .select(['id', 'project_id', 'template_id', 'status', 'runner_id', 'node_id'])
        .where('status', 'in', [...ACTIVE_TASK_STATUSES])
        .execute();
    },
    /**
     * Takes over a started task of a node that is gone, so of several nodes noticing it only one
     * closes it (and writes its closing lines). True for the node that took it.
     */
    async takeOverFromNode(taskId: number, goneNodeId: string, nodeId: string): Promise<boolean> {
      return tryUpdate(
        db
          .updateTable('task')
          .set({ node_id: nodeId })
          .where('id', '=', taskId)
          .where('node_id', '=', goneNodeId)
          .where('status', 'in', [...ACTIVE_TASK_STATUSES]),
      );
    },
    /** Those of the tasks `ids` that are in one of `statuses`. */
    async listWithStatus(
      ids: number[],
      statuses: readonly TaskStatus[],
    ): Promise<{ id: number; status: TaskStatus }[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('task')
        .select(['id', 'status'])
        .where('id', 'in', ids)
        .where('status', 'in', [...statuses])
        .execute();
      return rows.map((row) => ({ id: Number(row.id), status: row.status }));
    },
    listActive(): Promise<ActiveTaskRow[]> {
      return db
        .selectFrom('task')
        .innerJoin('project', 'project.id', 'task.project_id')
        .leftJoin('users', 'users.id', 'task.user_id')
        .leftJoin('runner', 'runner.id', 'task.runner_id')
        .select([
          'task.id',
          'task.project_id',
          'task.template_id',
          'task.status',
          'task.runner_id',
          'task.node_id',
          'runner.name as runner_name',
          'project.name as project_name',
          'users.username as username',
        ])
        .where('task.status', 'in', [...UNSTARTED_TASK_STATUSES, ...ACTIVE_TASK_STATUSES])
        .orderBy('task.id')
        .execute();
    },
    /** Moves a task from one status to another only if it is still in the first; true when it was. */
    async transition(id: number, from: readonly TaskStatus[], changes: Partial<Omit<TaskRow, 'id'>>): Promise<boolean> {
      if (!(changes.status !== undefined && isTaskFinished(changes.status)) && !from.some(isTaskFinished)) {
        return retryOnConflict(() =>
          tryUpdate(
            db
              .updateTable('task')
              .set(changes)
              .where('id', '=', id)
              .where('status', 'in', [...from]),
          ),
        );
      }
      // Entering or leaving a final status moves the task between the per-day stats counters.
      return retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const select = trx
            .selectFrom('task')
            .select(COUNTED_COLUMNS)
            .where('id', '=', id)
            .where('status', 'in', [...from]);
          const before = await lockForUpdate(select, dialect).executeTakeFirst();
          if (!before) return false;
          await trx.updateTable('task').set(changes).where('id', '=', id).execute();
          const after = { ...before, ...changes };
          await addTaskStatCounts(
            trx,
            dialect,
            countStatDeltas([
              { task: before, sign: -1 },
              { task: after, sign: 1 },
            ]),
          );
          return true;
        }),
      );
    },
    /** Records when a failed task's retry is due, once: false when it was already recorded. */
    async scheduleRetry(id: number, due: string): Promise<boolean> {
      return tryUpdate(
        db
          .updateTable('task')
          .set({ retry_due: due })
          .where('id', '=', id)
          .where('status', '=', 'error')
          .where('retry_due', 'is', null),
      );
    },
    /** Failed tasks whose retry is due, oldest first. */
    listDueRetries(now: string, limit: number): Promise<TaskRow[]> {
      return db.selectFrom('task').selectAll().where('retry_due', '<=', now).orderBy('id').limit(limit).execute();
    },
    /** Forgets a due retry once it exists (or cannot be made); false when another node did so first. */
    async clearRetryDue(id: number, due: string): Promise<boolean> {
      return tryUpdate(
        db.updateTable('task').set({ retry_due: null }).where('id', '=', id).where('retry_due', '=', due),
      );
    },
    async update(id: number, changes: Partial<Omit<TaskRow, 'id'>>): Promise<void> {
      await retryOnConflict(() => db.updateTable('task').set(changes).where('id', '=', id).execute());
    },
    async delete(projectId: number, id: number): Promise<void> {
      await deleteCountedTasks(db, dialect, (query) => query.where('project_id', '=', projectId).where('id', '=', id));
    },
    /**
     * Finished tasks of a template created from day `fromDay` to day `toDay` (YYYY-MM-DD, inclusive),
     * one row per day with a count for each outcome the chart shows, from the per-day counters.
     */
    async listStatCounts(
      projectId: number,
      templateId: number,
      fromDay: string,
      toDay: string,
      userId?: number,
    ): Promise<DayStatusCounts[]> {
      const countOf = (outcome: TaskStatOutcome) =>
        sql<number>`sum(case when status in (${sql.join(statusesCountedAs(outcome))}) then task_count else 0 end)`;
      const rows = await db
        .selectFrom('task_stat_day')
        .select(['created_day', countOf('success').as('success'), countOf('failed').as('failed')])
        .select(countOf('stopped').as('stopped'))
        .where('template_id', '=', templateId)
        .where('user_id', '=', userId ?? ALL_USERS)
        .where('created_day', '>=', fromDay)
        .where('created_day', '<=', toDay)
        .where('project_id', '=', projectId)
        .groupBy('created_day')
        .execute();
      return rows.map((row) => readDayStatusCounts(row.created_day, row));
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
