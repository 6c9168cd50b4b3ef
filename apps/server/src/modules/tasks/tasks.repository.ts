import { ACTIVE_TASK_STATUSES, type TaskStatus } from '@gantry/contract';
import type { Db, Dialect } from '../../db/database.ts';
import { retryOnConflict } from '../../db/errors.ts';
import { insertRow } from '../../db/insert.ts';
import type { TaskOutputRow, TaskRow } from './tasks.table.ts';

export interface TaskListRow extends TaskRow {
  tpl_alias: string;
  tpl_playbook: string;
  tpl_type: string;
  tpl_app: string;
  user_name: string | null;
}

/** A waiting task with what the dispatcher needs to decide whether it may start. */
export interface QueuedTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  template_name: string;
  allow_parallel_tasks: number;
  max_parallel_tasks: number;
}

/** A started task, as the dispatcher counts it against the limits. */
export interface StartedTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  status: string;
  runner_id: number | null;
}

export interface ActiveTaskRow {
  id: number;
  project_id: number;
  template_id: number;
  status: string;
  runner_id: number | null;
  node_id: string | null;
  runner_name: string | null;
  project_name: string;
  username: string | null;
}

export function createTasksRepository(db: Db, dialect: Dialect) {
  function selectWithTemplate() {
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

  return {
    insert(row: Omit<TaskRow, 'id'>): Promise<number> {
      return insertRow(db, dialect, 'task', row);
    },
    find(projectId: number, id: number): Promise<TaskListRow | undefined> {
      return selectWithTemplate().where('task.project_id', '=', projectId).where('task.id', '=', id).executeTakeFirst();
    },
    findById(id: number): Promise<TaskRow | undefined> {
      return db.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirst();
    },
    listForProject(projectId: number, limit: number): Promise<TaskListRow[]> {
      return selectWithTemplate().where('task.project_id', '=', projectId).orderBy('task.id', 'desc').limit(limit).execute();
    },
    listForTemplate(projectId: number, templateId: number, limit: number, status?: TaskStatus): Promise<TaskListRow[]> {
      let query = selectWithTemplate().where('task.project_id', '=', projectId).where('task.template_id', '=', templateId);
      if (status) query = query.where('task.status', '=', status);
      return query.orderBy('task.id', 'desc').limit(limit).execute();
    },
    /** The newest task of each given template, for template lists. */
    async listLastPerTemplate(projectId: number, templateIds: number[]): Promise<TaskListRow[]> {
      if (templateIds.length === 0) return [];
      const newest = db
        .selectFrom('task')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('project_id', '=', projectId)
        .where('template_id', 'in', templateIds)
        .groupBy('template_id');
      return selectWithTemplate().where('task.id', 'in', newest).execute();
    },
    findLastOfTemplate(templateId: number): Promise<TaskRow | undefined> {
      return db.selectFrom('task').selectAll().where('template_id', '=', templateId).orderBy('id', 'desc').limit(1).executeTakeFirst();
    },
    /** The queue in order, one page at a time: the dispatcher reads only as far as it can start tasks. */
    listWaiting(afterId: number, limit: number): Promise<QueuedTaskRow[]> {
      return db
        .selectFrom('task')
        .innerJoin('template', 'template.id', 'task.template_id')
        .innerJoin('project', 'project.id', 'task.project_id')
        .select(['task.id', 'task.project_id', 'task.template_id', 'template.name as template_name', 'template.allow_parallel_tasks', 'project.max_parallel_tasks'])
        .where('task.status', '=', 'waiting')
        .where('task.id', '>', afterId)
        .orderBy('task.id')
        .limit(limit)
        .execute();
    },
    listStarted(): Promise<StartedTaskRow[]> {
      return db
        .selectFrom('task')
        .select(['id', 'project_id', 'template_id', 'status', 'runner_id'])
        .where('status', 'in', [...ACTIVE_TASK_STATUSES])
        .execute();
    },
    listActive(): Promise<ActiveTaskRow[]> {
      return db
        .selectFrom('task')
        .innerJoin('project', 'project.id', 'task.project_id')
        .leftJoin('users', 'users.id', 'task.user_id')
        .leftJoin('runner', 'runner.id', 'task.runner_id')
        .select(['task.id', 'task.project_id', 'task.template_id', 'task.status', 'task.runner_id', 'task.node_id', 'runner.name as runner_name', 'project.name as project_name', 'users.username as username'])
        .where('task.status', 'in', ['waiting', ...ACTIVE_TASK_STATUSES])
        .orderBy('task.id')
        .execute();
    },
    /** Moves a task from one status to another only if it is still in the first; true when it was. */
    async transition(id: number, from: readonly string[], changes: Partial<Omit<TaskRow, 'id'>>): Promise<boolean> {
      const result = await retryOnConflict(() => db.updateTable('task').set(changes).where('id', '=', id).where('status', 'in', [...from]).executeTakeFirst());
      return Number(result.numUpdatedRows) > 0;
    },
    async update(id: number, changes: Partial<Omit<TaskRow, 'id'>>): Promise<void> {
      await retryOnConflict(() => db.updateTable('task').set(changes).where('id', '=', id).execute());
    },
    async delete(projectId: number, id: number): Promise<void> {
      await db.deleteFrom('task').where('project_id', '=', projectId).where('id', '=', id).execute();
    },
    /** Per-day counts of finished tasks of a template, by status. */
    listForStats(projectId: number, templateId: number, since: string, until: string, userId?: number) {
      let query = db
        .selectFrom('task')
        .select(['status', 'created'])
        .where('project_id', '=', projectId)
        .where('template_id', '=', templateId)
        .where('created', '>=', since)
        .where('created', '<', until);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      return query.execute();
    },

    async insertOutput(rows: Omit<TaskOutputRow, 'id'>[], taskId: number, nextSeq: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        // The task row first: on MySQL, inserting lines share-locks it (foreign key) and a later update
        // would have to upgrade that lock, deadlocking with a concurrent status change.
        await trx.updateTable('task').set({ output_lines: nextSeq }).where('id', '=', taskId).execute();
        for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('task_output').values(rows.slice(i, i + 1000)).execute();
      });
    },
    listOutput(taskId: number, offset: number, limit: number | undefined): Promise<TaskOutputRow[]> {
      let query = db.selectFrom('task_output').selectAll().where('task_id', '=', taskId).where('seq', '>=', offset).orderBy('seq');
      if (limit !== undefined) query = query.where('seq', '<', offset + limit);
      return query.execute();
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
