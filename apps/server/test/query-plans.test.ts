import { ACTIVE_TASK_STATUSES } from '@gantry/contract';
import { sql, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateYear, type GeneratedYear } from '../../../bench/scale-year.ts';
import type { Db, Dialect } from '../src/db/database.ts';
import { createEventsRepository } from '../src/modules/events/events.repository.ts';
import { createTaskHostsRepository } from '../src/modules/tasks/task-hosts.repository.ts';
import { createTaskLogIndexRepository } from '../src/modules/tasks/task-log-index.repository.ts';
import { createTaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';
import { createTaskRetentionRepository } from '../src/modules/tasks/task-retention.repository.ts';
import { createTasksRepository } from '../src/modules/tasks/tasks.repository.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/** Tables that grow with use: a query the UI or retention runs must never read one of them whole. */
const GROWING = ['task', 'task_output', 'task_stat_day', 'event', 'task_host', 'task_log_index'];

/** A view of the store that records the statements the repositories send, as the store receives them. */
function recordQueries(db: Db) {
  const queries: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      queries.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return { db: db.withPlugin(plugin), queries };
}

/** The plan lines that read a growing table in full, per store's way of saying so. */
async function findFullScans(db: Db, dialect: Dialect, query: CompiledQuery): Promise<string[]> {
  if (dialect === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
    // "SCAN t" reads the table; "SCAN t USING INDEX i" walks an index in order and stops at the limit; "SEARCH" seeks.
    return plan.rows
      .map((row) => row.detail)
      .filter((detail) => GROWING.some((table) => new RegExp(`^SCAN ${table}$`).test(detail)));
  }
  if (dialect === 'postgres') {
    // A small test store makes any table cheap to read whole; forbidding that asks whether an index can answer instead.
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>({ ...query, sql: `explain ${query.sql}` });
      return plan.rows
        .map((row) => row['QUERY PLAN'])
        .filter((line) => GROWING.some((table) => new RegExp(`Seq Scan on ${table}\\b`).test(line)));
    });
  }
  const plan = await db.executeQuery<{ table: string; type: string; key: string | null }>({
    ...query,
    sql: `explain ${query.sql}`,
  });
  // An index merge reads every entry of each index's range before it keeps the rows both hold (and sorts them
  // for a limit), unless a list of ids bounds what it reads.
  const mergeBounded = /`id` in \(/.test(query.sql);
  return plan.rows
    .filter(
      (row) => GROWING.includes(row.table) && (row.type === 'ALL' || (row.type === 'index_merge' && !mergeBounded)),
    )
    .map((row) => `${row.table}: ${row.type === 'ALL' ? 'full scan' : `index merge of ${row.key}`}`);
}

describe.each(dialects)('query plans of the growing tables on %s', (dialect) => {
  const t = useTestApp(dialect);
  let year: GeneratedYear;

  beforeAll(async () => {
    year = await generateYear(t.runtime.connection.db, dialect, {
      projects: 4,
      templates: 20,
      tasks: 4000,
      lines: 20_000,
      users: 10,
      now: new Date('2031-01-01T00:00:00.000Z'),
      searchIndex: true,
    });
    // Every project's tasks ran on a fleet of hosts, so the host history has rows to find.
    const { db } = t.runtime.connection;
    const taskIds = (await db.selectFrom('task').select('id').orderBy('id').execute()).map((row) => row.id);
    const counts = { ok: 1, changed: 0, failed: 0, unreachable: 0, skipped: 0, rescued: 0, ignored: 0 };
    for (let i = 0; i < taskIds.length; i += 400) {
      const rows = taskIds.slice(i, i + 400).flatMap((taskId) =>
        ['web1', 'web2', 'db1'].map((host, n) => ({
          task_id: taskId,
          host,
          ...counts,
          failed: (taskId + n) % 7 === 0 ? 1 : 0,
        })),
      );
      await db.insertInto('task_host').values(rows).execute();
    }
    if (dialect === 'mysql')
      await sql`analyze table task, task_output, task_stat_day, event, task_host, task_log_index`.execute(
        t.runtime.connection.db,
      );
    if (dialect === 'postgres') await sql`analyze`.execute(t.runtime.connection.db);
  });

  it('serves history, template tasks, stats, logs, log search, activity, host history and retention from indexes', async () => {
    const { db } = t.runtime.connection;
    const recorder = recordQueries(db);
    const tasks = createTasksRepository(recorder.db, dialect);
    const events = createEventsRepository(recorder.db);
    const projectId = year.projectIds[1]!;
    const templateIds = year.templateIds[1]!;
    const templateId = templateIds[0]!;
    const newest = await db
      .selectFrom('task')
      .select(['id', 'output_lines'])
      .where('template_id', '=', templateId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    await tasks.listForProject(projectId, 200);
    await tasks.listForProject(projectId, 200, newest.id);
    await tasks.listForTemplate(projectId, templateId, 200, { beforeId: newest.id });
    await tasks.listForTemplate(projectId, templateId, 1000, { status: 'success' });
    await tasks.listLastPerTemplate(projectId, templateIds);
    await tasks.listByIds(projectId, [newest.id]);
    // The dispatcher's count of started tasks adds up to them, as numbers on every store.
    const running = await db
      .selectFrom('task')
      .select('id')
      .where('template_id', 'in', templateIds.slice(0, 2))
      .orderBy('id')
      .limit(3)
      .execute();
    await db
      .updateTable('task')
      .set({ status: 'running' })
      .where(
        'id',
        'in',
        running.map((row) => row.id),
      )
      .execute();
    const startedBefore = await db
      .selectFrom('task')
      .select('id')
      .where('status', 'in', [...ACTIVE_TASK_STATUSES])
      .where(
        'id',
        'not in',
        running.map((row) => row.id),
      )
      .execute();
    const counted = await tasks.countStarted();
    expect(counted.reduce((sum, group) => sum + group.count, 0)).toBe(startedBefore.length + 3);
    expect(counted.every((group) => typeof group.count === 'number' && group.count > 0)).toBe(true);
    await tasks.find(projectId, newest.id);
    await tasks.listStatCounts(projectId, templateId, '2030-01-01', '2030-12-31');
    await tasks.listStatCounts(projectId, templateId, '2030-01-01', '2030-12-31', year.userIds[0]);
    await createTaskOutputRepository(recorder.db, dialect).list(newest.id, 0, 500);
    await createTaskRetentionRepository(recorder.db, dialect).listBuildsReferencedByOthers([newest.id]);
    const hosts = createTaskHostsRepository(recorder.db);
    await hosts.listLastRuns(projectId, 20_001);
    await hosts.listFailing(projectId, '2030-12-01T00:00:00.000Z', 100);
    await hosts.listTaskTimes(projectId, [newest.id]);
    await hosts.listFailedHosts(newest.id);
    await events.listForProject(projectId, 200);
    await events.listForUser({ id: year.userIds[0]!, admin: false }, 200);
    await events.listForUser({ id: year.userIds[0]!, admin: true }, 200);
    // Search across tasks: the estimate, the index's newest matches, the walk of the project's tasks, the lines.
    const logIndex = createTaskLogIndexRepository(recorder.db, dialect);
    await logIndex.estimateLines('example test', 10_000);
    const matches = await logIndex.listNewestMatches('deploy step', newest.id, 5000);
    await logIndex.listProjectTasksOf(projectId, [...new Set(matches)], { status: 'success' }, 21);
    const walked = await logIndex.listIndexedTasks(projectId, { templateId, status: 'error' }, newest.id, 100);
    await logIndex.listIndexedTasks(projectId, { createdFrom: '2030-06-01T00:00:00.000Z' }, undefined, 100);
    await logIndex.listIndexedTasks(projectId, { templateId }, undefined, 100);
    await logIndex.listIndexedTasks(projectId, { status: 'error' }, undefined, 100);
    await logIndex.listTasksHolding(
      'example test',
      walked.map((task) => task.id),
    );
    await logIndex.listMatchingLines(newest.id, 'example test', 21);
    await logIndex.listLines(newest.id, [0, 1, 2]);

    expect(recorder.queries.length).toBeGreaterThanOrEqual(25);
    for (const query of recorder.queries) {
      expect(await findFullScans(db, dialect, query), query.sql).toEqual([]);
    }
  });
});
