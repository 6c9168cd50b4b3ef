import { sql } from 'kysely';
import { connectDatabase } from '../src/db/connect.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, insertTaskRow, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const METRICS_TOKEN = 'scrape-Token-0123456789';

/** The value of one sample line, e.g. `gantry_tasks{status="running",app="bash"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(dialects)('Prometheus metrics (%s)', (dialect) => {
  const t = useTestApp(dialect, { metrics_token: METRICS_TOKEN });
  let project: ProjectFixture;
  let guestCookie: string;
  beforeAll(async () => {
    t.secrets.add(METRICS_TOKEN);
    project = await createProjectFixture(t, { 'hello.sh': 'echo one\necho two\necho three\n' });
    guestCookie = (await t.createUser('metrics-guest')).cookie;
  });

  const scrape = async (headers: Record<string, string>) => t.request('GET', '/api/metrics', { headers });

  it('is read by administrators and the metrics token, and by nobody else', async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token' })).status).toBe(401);
    expect((await scrape({ cookie: guestCookie })).status).toBe(403);
    const byAdmin = await scrape({ cookie: t.adminCookie });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const byToken = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
    expect(byToken.status).toBe(200);
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'gantry_http_request_duration_seconds_bucket',
      'gantry_websocket_clients',
    ]) {
      expect(byToken.text).toContain(name);
    }
  });

  it('counts finished tasks by status and app, their queue wait and run time, and their stored lines', async () => {
    const templateId = await project.createTemplate({ playbook: 'hello.sh' });
    const before = (await scrape({ cookie: t.adminCookie })).text;
    const linesBefore = sample(before, 'gantry_log_lines_ingested_total') ?? 0;
    const taskId = await project.runTask(templateId);
    await project.waitForStatus(taskId, ['success']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = (await scrape({ cookie: t.adminCookie })).text;
    expect(sample(after, 'gantry_tasks_finished_total{status="success",app="bash"}')).toBe(1);
    const labels = `project_id="${project.projectId}",template_id="${templateId}"`;
    expect(sample(after, `gantry_task_queue_wait_seconds_count{${labels}}`)).toBe(1);
    expect(sample(after, `gantry_task_run_duration_seconds_count{${labels},status="success"}`)).toBe(1);
    expect(sample(after, 'gantry_log_lines_ingested_total')).toBeGreaterThanOrEqual(linesBefore + 3);
  });

  it('reports unfinished tasks and runners from the store at each scrape', async () => {
    const templateId = await project.createTemplate({ playbook: 'hello.sh', name: 'Python stuck', app: 'python' });
    await insertTaskRow(t, { project_id: project.projectId, template_id: templateId, status: 'running' });
    await insertTaskRow(t, { project_id: project.projectId, template_id: templateId, status: 'running' });
    const runner = await t.request('POST', '/api/runners', {
      as: t.adminCookie,
      body: { name: 'idle runner', webhook: '', max_parallel_tasks: 1, active: true },
    });
    expect(runner.status, runner.text).toBeLessThan(300);
    const text = (await scrape({ cookie: t.adminCookie })).text;
    expect(sample(text, 'gantry_tasks{status="running",app="python"}')).toBe(2);
    expect(sample(text, 'gantry_runners{state="offline"}')).toBe(1);
    expect(sample(text, 'gantry_runners{state="alive"}')).toBe(0);
  });

  it('counts store statements, and those that fail, but not duplicate names, which are answers', async () => {
    const scraped = (await scrape({ cookie: t.adminCookie })).text;
    const before = sample(scraped, 'gantry_store_query_errors_total') ?? 0;
    const statementsBefore = sample(scraped, 'gantry_store_queries_total') ?? 0;
    await sql`select 1 as one`.execute(t.runtime.connection.db);
    await sql`select 2 as two`.execute(t.runtime.connection.db);
    // The two statements, and those of the scrape in between (its session and its gauges' reads).
    expect(sample((await scrape({ cookie: t.adminCookie })).text, 'gantry_store_queries_total')).toBeGreaterThanOrEqual(
      statementsBefore + 2,
    );
    await expect(sql`select * from no_such_table`.execute(t.runtime.connection.db)).rejects.toThrow();
    const duplicate = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'metrics-guest', name: 'Again', email: 'again@example.com', password: 'again-Secret-1' },
    });
    expect(duplicate.status).toBe(409);
    expect(sample((await scrape({ cookie: t.adminCookie })).text, 'gantry_store_query_errors_total')).toBe(before + 1);
  });

  it('hears of every statement of a connection, begin and commit too, and of the failures only as failed', async () => {
    const seen: string[] = [];
    const { db } = connectDatabase(dialect, t.runtime.config.db_url, {
      onQuery: (result) => seen.push(result),
      maxConnections: 1,
    });
    try {
      await sql`select 1 as one`.execute(db);
      await db.transaction().execute((trx) => sql`select 2 as two`.execute(trx));
      await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow();
      const { id: _id, ...admin } = await db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
      await expect(db.insertInto('users').values(admin).execute()).rejects.toThrow();
      // select, begin + select + commit, the failure, the read, the duplicate key (an answer).
      expect(seen).toEqual(['answered', 'answered', 'answered', 'answered', 'failed', 'answered', 'answered']);
    } finally {
      await db.destroy();
    }
  });

  it('labels request durations by route pattern, never by the raw path', async () => {
    await t.request('GET', `/api/project/${project.projectId}/templates`, { as: t.adminCookie });
    await t.request('GET', '/api/no-such-path-1234');
    const text = (await scrape({ cookie: t.adminCookie })).text;
    expect(text).toContain('route="/api/project/:projectId/templates",status="200"');
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toContain('no-such-path-1234');
  });
});
