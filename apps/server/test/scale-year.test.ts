import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateYear, type GeneratedYear } from '../../../bench/scale-year.ts';
import type { Clock } from '../src/clock.ts';
import { taskStats } from '../src/db/migrations/0013-task-stats.ts';
import { createSchemaHelpers } from '../src/db/schema.ts';
import { createTasksRepository } from '../src/modules/tasks/tasks.repository.ts';
import { type TestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const NOW = new Date('2031-03-15T12:00:00.000Z');
const clock: Clock = { now: () => NOW };
const YEAR_AGO = new Date(NOW.getTime() - 366 * 86_400_000).toISOString().slice(0, 10);

interface Listed {
  id: number;
  template_id: number;
  status: string;
}
type Stats = { date: string; count_by_status: { success: number; failed: number; stopped: number } }[];

/** The stats as a direct count over the task table would give them: year totals per chart status. */
async function countDirectly(t: TestApp, templateId: number, userId?: number) {
  let query = t.runtime.connection.db
    .selectFrom('task')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('template_id', '=', templateId)
    .where('created', '>=', `${YEAR_AGO}T00:00:00.000Z`)
    .groupBy('status');
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const totals = { success: 0, failed: 0, stopped: 0 };
  for (const row of await query.execute()) {
    const n = Number(row.n);
    if (row.status === 'success') totals.success += n;
    else if (row.status === 'error') totals.failed += n;
    else if (row.status === 'stopped' || row.status === 'rejected') totals.stopped += n;
  }
  return totals;
}

function sumStats(stats: Stats) {
  const totals = { success: 0, failed: 0, stopped: 0 };
  for (const day of stats) {
    totals.success += day.count_by_status.success;
    totals.failed += day.count_by_status.failed;
    totals.stopped += day.count_by_status.stopped;
  }
  return totals;
}

describe.each(dialects)('a generated year of history on %s', (dialect) => {
  const t = useTestApp(dialect, { task_retention_days: 200 }, { clock });
  let year: GeneratedYear;
  let base: string;
  let templateId: number;

  async function expectStatsMatchDirectCount(userId?: number): Promise<void> {
    const filter = userId === undefined ? '' : `&user_id=${userId}`;
    const response = await t.request('GET', `${base}/templates/${templateId}/stats?start=${YEAR_AGO}${filter}`, {
      as: t.adminCookie,
    });
    expect(response.status).toBe(200);
    const stats = response.body as Stats;
    expect(stats.length).toBeGreaterThanOrEqual(366);
    expect(sumStats(stats)).toEqual(await countDirectly(t, templateId, userId));
  }

  async function busiestUser(): Promise<number> {
    const row = await t.runtime.connection.db
      .selectFrom('task')
      .select(['user_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('template_id', '=', templateId)
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .orderBy('n', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    return Number(row.user_id);
  }

  beforeAll(async () => {
    year = await generateYear(t.runtime.connection.db, dialect, {
      projects: 3,
      templates: 9,
      tasks: 3000,
      lines: 15_000,
      users: 8,
      now: NOW,
    });
    base = `/api/project/${year.projectIds[0]}`;
    templateId = year.templateIds[0]![0]!;
  });

  it('writes the asked numbers of tasks and log lines', async () => {
    const { db } = t.runtime.connection;
    const tasks = await db
      .selectFrom('task')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const lines = await db
      .selectFrom('task_output')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(tasks.n)).toBe(3000);
    expect(Number(lines.n)).toBe(year.lineCount);
    expect(year.lineCount).toBeGreaterThan(10_000);
  });

  it('pages through the whole history newest first with before_id, each task once', async () => {
    const { db } = t.runtime.connection;
    const expected = (
      await db
        .selectFrom('task')
        .select('id')
        .where('project_id', '=', year.projectIds[0]!)
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => Number(r.id));
    const seen: number[] = [];
    let cursor = '';
    for (;;) {
      const response = await t.request('GET', `${base}/tasks/last?limit=200${cursor}`, { as: t.adminCookie });
      expect(response.status).toBe(200);
      const page = response.body as Listed[];
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(200);
      seen.push(...page.map((task) => task.id));
      cursor = `&before_id=${page[page.length - 1]!.id}`;
    }
    expect(seen).toEqual(expected);
    // Semaphore's own parameters still answer as before: the newest 200, and the newest 1000.
    expect(
      ((await t.request('GET', `${base}/tasks/last`, { as: t.adminCookie })).body as Listed[]).map((task) => task.id),
    ).toEqual(expected.slice(0, 200));
    expect(
      ((await t.request('GET', `${base}/tasks`, { as: t.adminCookie })).body as Listed[]).map((task) => task.id),
    ).toEqual(expected.slice(0, 1000));
  });

  it('pages through a template tasks with before_id and refuses a cursor that is not an id', async () => {
    const { db } = t.runtime.connection;
    const expected = (
      await db.selectFrom('task').select('id').where('template_id', '=', templateId).orderBy('id', 'desc').execute()
    ).map((r) => Number(r.id));
    const first = (await t.request('GET', `${base}/templates/${templateId}/tasks/last?limit=50`, { as: t.adminCookie }))
      .body as Listed[];
    const second = (
      await t.request('GET', `${base}/templates/${templateId}/tasks/last?limit=50&before_id=${first[49]!.id}`, {
        as: t.adminCookie,
      })
    ).body as Listed[];
    expect([...first, ...second].map((task) => task.id)).toEqual(expected.slice(0, 100));
    const all = (
      await t.request('GET', `${base}/templates/${templateId}/tasks?before_id=${expected[10]}`, { as: t.adminCookie })
    ).body as Listed[];
    expect(all.map((task) => task.id)).toEqual(expected.slice(11, 1011));
    const bad = await t.request('GET', `${base}/tasks/last?before_id=abc`, { as: t.adminCookie });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Invalid before_id' });
  });

  it('lists templates with their newest task', async () => {
    const { db } = t.runtime.connection;
    const templates = (await t.request('GET', `${base}/templates`, { as: t.adminCookie })).body as {
      id: number;
      last_task_id: number | null;
    }[];
    expect(templates).toHaveLength(year.templateIds[0]!.length);
    for (const template of templates) {
      const newest = await db
        .selectFrom('task')
        .select((eb) => eb.fn.max('id').as('id'))
        .where('template_id', '=', template.id)
        .executeTakeFirstOrThrow();
      expect(template.last_task_id).toBe(newest.id === null ? null : Number(newest.id));
    }
  });

  it('answers the stats of a year from the counters with the sums of a direct count, with and without a user', async () => {
    await expectStatsMatchDirectCount();
    await expectStatsMatchDirectCount(await busiestUser());
  });

  it('keeps the stats equal to a direct count when a task finishes, is deleted, or retention removes half a year', async () => {
    const { db } = t.runtime.connection;
    const running = await db
      .selectFrom('task')
      .select('id')
      .where('template_id', '=', templateId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (running)
      expect(
        await createTasksRepository(db, dialect).transition(Number(running.id), ['running'], {
          status: 'error',
          end: NOW.toISOString(),
        }),
      ).toBe(true);
    const finished = await db
      .selectFrom('task')
      .select(['id'])
      .where('template_id', '=', templateId)
      .where('status', '=', 'success')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect((await t.request('DELETE', `${base}/tasks/${finished.id}`, { as: t.adminCookie })).status).toBe(204);
    await expectStatsMatchDirectCount();

    const removed = await t.runtime.services.taskRetention.runOnce();
    expect(removed).toBeGreaterThan(1000);
    await expectStatsMatchDirectCount();
    const user = await busiestUser();
    await expectStatsMatchDirectCount(user);

    // A deleted user's tasks stay, without a user: their stats count no task for that id any more.
    expect((await t.request('DELETE', `/api/users/${user}`, { as: t.adminCookie })).status).toBe(204);
    await expectStatsMatchDirectCount(user);
    await expectStatsMatchDirectCount();
  });

  it('the migration counts the tasks a store already holds', async () => {
    const { db } = t.runtime.connection;
    await db.schema.dropTable('task_stat_day').execute();
    // Later migrations have run too, so 0013 is run on its own, as it ran on a store that held tasks.
    const migrationDb = db as unknown as Kysely<unknown>;
    await taskStats.up(migrationDb, createSchemaHelpers(migrationDb, dialect));
    await expectStatsMatchDirectCount();
    await expectStatsMatchDirectCount(await busiestUser());
  });
});
