import { ACTIVE_TASK_STATUSES } from '@gantry/contract';
import type { Db } from '../db/database.ts';

/** The few store reads a metrics scrape makes: small tables and the unfinished tasks only, never history. */
export function createMetricsRepository(db: Db) {
  return {
    /** Unfinished tasks (queued and active) counted by status and app. */
    async countUnfinishedTasks(): Promise<{ status: string; app: string; count: number }[]> {
      const rows = await db
        .selectFrom('task')
        .innerJoin('template', 'template.id', 'task.template_id')
        .select(['task.status', 'template.app'])
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('task.status', 'in', ['waiting', ...ACTIVE_TASK_STATUSES])
        .groupBy(['task.status', 'template.app'])
        .execute();
      return rows.map((r) => ({ status: r.status, app: r.app, count: Number(r.count) }));
    },
    /** Every runner (global and per project) with its last heartbeat and the number of tasks it holds. */
    async listRunnerLoads(): Promise<{ active: number; touched: string | null; tasks: number }[]> {
      const rows = await db
        .selectFrom('runner')
        .leftJoin('task', (join) =>
          join.onRef('task.runner_id', '=', 'runner.id').on('task.status', 'in', [...ACTIVE_TASK_STATUSES]),
        )
        .select(['runner.id', 'runner.active', 'runner.touched'])
        .select((eb) => eb.fn.count<number>('task.id').as('tasks'))
        .groupBy(['runner.id', 'runner.active', 'runner.touched'])
        .execute();
      return rows.map((r) => ({ active: r.active, touched: r.touched, tasks: Number(r.tasks) }));
    },
    async findTemplateApp(templateId: number): Promise<string | undefined> {
      return (await db.selectFrom('template').select('app').where('id', '=', templateId).executeTakeFirst())?.app;
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
