import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate.ts';
import { withStoreMigratedUpTo } from './migration-fixture.ts';
import { type Step, createWorkflowElsewhere, useRunProjects } from './workflow-run-fixture.ts';
import { createPeerNode, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

type StatsEntry = { date: string; count_by_status: Record<string, number> };

describe.each(dialects)('workflow run stats on %s', (dialect) => {
  const t = useTestApp(dialect);
  const { p, other, templates, users, createWorkflow, startRun, runToEnd } = useRunProjects(t, { members: 'wfstats' });

  const send = (method: string, path: string, as = t.adminCookie) => t.request(method, `${p.base}${path}`, { as });
  const step = (template: number): Step => ({ key: 'only', kind: 'template', template_id: template });
  async function statsOf(workflowId: number, query = ''): Promise<StatsEntry[]> {
    const response = await send('GET', `/workflows/${workflowId}/stats${query}`, users.guest.cookie);
    expect(response.status, response.text).toBe(200);
    return response.body as StatsEntry[];
  }

  it('counts each ended run once, by the day it started and its outcome, with zero days in between', async () => {
    const ok = await createWorkflow([step(templates.ok)]);
    const fail = await createWorkflow([step(templates.fail)]);
    const slow = await createWorkflow([step(templates.slow)]);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const zero = { success: 0, failed: 0, stopped: 0 };

    expect(await statsOf(ok, `?start=${today}`)).toEqual([{ date: today, count_by_status: zero }]);
    expect((await runToEnd(ok)).status).toBe('success');
    expect((await runToEnd(ok)).status).toBe('success');
    expect((await runToEnd(fail)).status).toBe('failed');

    // A run still going is not counted; stopped, it counts once, however many engines look at it after.
    const started = await startRun(slow, {});
    expect(await statsOf(slow, `?start=${today}`)).toEqual([{ date: today, count_by_status: zero }]);
    expect((await send('POST', `/workflows/${slow}/runs/${started.id}/stop`)).status).toBe(204);
    expect((await send('POST', `/workflows/${slow}/runs/${started.id}/stop`)).status).toBe(409);
    const peer = await createPeerNode(t);
    try {
      await Promise.all([
        t.runtime.services.workflowRuns.advance(started.id),
        peer.runtime.services.workflowRuns.advance(started.id),
      ]);
    } finally {
      await peer.close();
    }

    expect(await statsOf(ok, `?start=${yesterday}&end=${today}`)).toEqual([
      { date: yesterday, count_by_status: zero },
      { date: today, count_by_status: { ...zero, success: 2 } },
    ]);
    expect(await statsOf(fail, `?start=${today}`)).toEqual([{ date: today, count_by_status: { ...zero, failed: 1 } }]);
    expect(await statsOf(slow, `?start=${today}`)).toEqual([{ date: today, count_by_status: { ...zero, stopped: 1 } }]);
    // Without a range: the 30 days up to today.
    const month = await statsOf(ok);
    expect(month).toHaveLength(31);
    expect(month.at(-1)).toEqual({ date: today, count_by_status: { ...zero, success: 2 } });
  });

  it('reads the counters, scoped by project, deleted with their workflow', async () => {
    const id = await createWorkflow([step(templates.ok)]);
    await runToEnd(id);
    const { db } = t.runtime.connection;
    const counters = () =>
      db
        .selectFrom('workflow_run_stat_day')
        .select(['project_id', 'status', 'run_count'])
        .where('workflow_id', '=', id);
    expect(await counters().execute()).toEqual([{ project_id: p.projectId, status: 'success', run_count: 1 }]);
    expect((await send('DELETE', `/workflows/${id}`)).status).toBe(204);
    expect(await counters().execute()).toEqual([]);
  });

  it('lets any member read, and refuses non-members, other projects, unknown workflows and bad dates', async () => {
    const id = await createWorkflow([step(templates.ok)]);
    const otherWorkflow = await createWorkflowElsewhere(t, other, 'ok.sh');
    expect((await send('GET', `/workflows/${id}/stats`, users.runner.cookie)).status).toBe(200);
    const outsider = await t.request('GET', `${other.base}/workflows/${otherWorkflow}/stats`, {
      as: users.runner.cookie,
    });
    expect(outsider.status).toBe(404);
    expect((await send('GET', `/workflows/${otherWorkflow}/stats`)).status).toBe(404);
    expect((await send('GET', '/workflows/2147483647/stats')).status).toBe(404);
    const badStart = await send('GET', `/workflows/${id}/stats?start=yesterday`);
    expect(badStart.status).toBe(400);
    expect(badStart.body).toMatchObject({ error: 'Invalid start date' });
    const badEnd = await send('GET', `/workflows/${id}/stats?end=2026-1-1`);
    expect(badEnd.status).toBe(400);
    expect(badEnd.body).toMatchObject({ error: 'Invalid end date' });
    const noDay = await send('GET', `/workflows/${id}/stats?start=2026-02-30`);
    expect(noDay.status).toBe(400);
    expect(noDay.body).toMatchObject({ error: 'Invalid start date' });
    const ages = await send('GET', `/workflows/${id}/stats?start=0001-01-01&end=9999-12-31`);
    expect(ages.status).toBe(400);
    expect(ages.body).toMatchObject({ error: 'Stats cover at most 3660 days' });
    const templateAges = await send('GET', `/templates/${templates.ok}/stats?start=0001-01-01`);
    expect(templateAges.status).toBe(400);
    expect(templateAges.body).toMatchObject({ error: 'Stats cover at most 3660 days' });
  });
});

describe.each(dialects)('migration 0026 on a %s store that holds workflows and runs', (dialect) => {
  it('counts the runs that had ended, per workflow, day of start and status, and records what steps in force name', async () => {
    await withStoreMigratedUpTo(dialect, '0025-approval-alerts', async (db) => {
      const time = '2026-03-01T10:00:00.000Z';
      await sql`insert into project (id, name, created) values (4, 'P', ${time})`.execute(db);
      for (const id of [7, 8])
        await sql`insert into workflow (id, project_id, name, description, revision, created, updated)
          values (${id}, 4, ${`W${id}`}, '', 1, ${time}, ${time})`.execute(db);
      const runs: [number, string, string][] = [
        [7, 'success', '2026-03-01T10:00:00.000Z'],
        [7, 'success', '2026-03-01T23:59:59.000Z'],
        [7, 'failed', '2026-03-01T11:00:00.000Z'],
        [7, 'success', '2026-03-02T00:00:00.000Z'],
        [7, 'running', '2026-03-02T00:00:00.000Z'],
        [8, 'stopped', '2026-03-01T12:00:00.000Z'],
      ];
      for (const [workflow, status, start] of runs)
        await sql`insert into workflow_run (project_id, workflow_id, revision, status, user_id, variables, message, start, ${sql.ref('end')})
          values (4, ${workflow}, 1, ${status}, null, '{}', '', ${start}, null)`.execute(db);

      // Revision 2 is in force for workflow 7: its steps name inventory 11 twice and variable group 12.
      const step = (extra: object) => ({ key: 's', kind: 'template', template_id: 1, ...extra });
      const revisions: [number, number, object[]][] = [
        [7, 1, [step({ inventory_id: 99 })]],
        [
          7,
          2,
          [step({ inventory_id: 11 }), step({ inventory_id: 11, environment_id: 12 }), { key: 'w', kind: 'wait' }],
        ],
        [8, 1, [step({ inventory_id: null, environment_id: null })]],
      ];
      await sql`update workflow set revision = 2 where id = 7`.execute(db);
      for (const [workflow, number, steps] of revisions)
        await sql`insert into workflow_revision (workflow_id, project_id, number, definition, user_id, created)
          values (${workflow}, 4, ${number}, ${JSON.stringify({ steps })}, null, ${time})`.execute(db);

      await migrateToLatest(db, dialect);

      const uses = await db
        .selectFrom('workflow_resource')
        .select(['workflow_id', 'project_id', 'kind', 'resource_id'])
        .orderBy('kind')
        .execute();
      expect(uses).toEqual([
        { workflow_id: 7, project_id: 4, kind: 'environment', resource_id: 12 },
        { workflow_id: 7, project_id: 4, kind: 'inventory', resource_id: 11 },
      ]);
      const counters = await db
        .selectFrom('workflow_run_stat_day')
        .select(['project_id', 'workflow_id', 'start_day', 'status', 'run_count'])
        .orderBy('workflow_id')
        .orderBy('start_day')
        .orderBy('status')
        .execute();
      expect(counters.map((c) => ({ ...c, run_count: Number(c.run_count) }))).toEqual([
        { project_id: 4, workflow_id: 7, start_day: '2026-03-01', status: 'failed', run_count: 1 },
        { project_id: 4, workflow_id: 7, start_day: '2026-03-01', status: 'success', run_count: 2 },
        { project_id: 4, workflow_id: 7, start_day: '2026-03-02', status: 'success', run_count: 1 },
        { project_id: 4, workflow_id: 8, start_day: '2026-03-01', status: 'stopped', run_count: 1 },
      ]);
    });
  });
});
