import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '@gantry/contract';
import type { Clock } from '../src/clock.ts';
import type { ConfigInput } from '../src/config.ts';
import { insertRow } from '../src/db/insert.ts';
import { countLogIndexRows, createProjectFixture, insertTaskRow, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const NOW = new Date('2030-06-01T12:00:00.000Z');
const clock: Clock = { now: () => NOW };
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000).toISOString();

interface Setup {
  t: TestApp;
  p: ProjectFixture;
}

/** A task row as the engine leaves it, with `lines` lines of output. */
async function insertTask(
  { t, p }: Setup,
  templateId: number,
  fields: { status: TaskStatus; created: string; end?: string | null; lines?: number; build_task_id?: number | null },
): Promise<number> {
  const { db } = t.runtime.connection;
  const lines = fields.lines ?? 2;
  const id = await insertTaskRow(t, {
    project_id: p.projectId,
    template_id: templateId,
    status: fields.status,
    created: fields.created,
    start: fields.end ? fields.created : null,
    end: fields.end ?? null,
    build_task_id: fields.build_task_id ?? null,
    output_lines: lines,
  });
  const rows = Array.from({ length: lines }, (_, seq) => ({
    task_id: id,
    seq,
    time: fields.created,
    output: `line ${seq}`,
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('task_output')
      .values(rows.slice(i, i + 1000))
      .execute();
  return id;
}

async function remainingTasks({ t }: Setup, ids: number[]): Promise<number[]> {
  const rows = await t.runtime.connection.db
    .selectFrom('task')
    .select('id')
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}

async function outputLines({ t }: Setup, ids: number[]): Promise<number> {
  const row = await t.runtime.connection.db
    .selectFrom('task_output')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('task_id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Lines of the tasks in the search index across logs (migration 0020), read from the store's own index. */
async function indexedLines({ t }: Setup, ids: number[]): Promise<number> {
  let total = 0;
  for (const id of ids) total += await countLogIndexRows(t, id);
  return total;
}

/**
 * An installation with these retention settings for the tests of one describe block (filled in before
 * them), and the directly inserted active tasks ended before it closes.
 */
function useSetup(dialect: Parameters<typeof createTestApp>[0], overrides: ConfigInput): Setup {
  const s = {} as Setup;
  beforeAll(async () => {
    s.t = await createTestApp(dialect, overrides, { clock });
    s.p = await createProjectFixture(s.t, { 'noop.sh': 'true\n' });
  });
  afterAll(async () => {
    await finishActive(s);
    await s.t.close();
  });
  return s;
}

/** Ends the directly inserted active tasks, so nothing waits on them when the app closes. */
async function finishActive({ t }: Setup): Promise<void> {
  await t.runtime.connection.db
    .updateTable('task')
    .set({ status: 'error' })
    .where('status', 'not in', ['success', 'error', 'stopped', 'rejected'])
    .execute();
}

describe.each(dialects)('task retention on %s', (dialect) => {
  describe('by default', () => {
    const s = useSetup(dialect, {});

    it('is disabled and removes nothing, however old the history', async () => {
      const templateId = await s.p.createTemplate({ playbook: 'noop.sh' });
      const ids = [];
      for (let i = 0; i < 4; i++)
        ids.push(await insertTask(s, templateId, { status: 'success', created: daysAgo(3000), end: daysAgo(3000) }));
      const retention = s.t.runtime.services.taskRetention;
      expect(retention.enabled).toBe(false);
      expect(await retention.runOnce()).toBe(0);
      expect(await remainingTasks(s, ids)).toEqual(ids);
      expect(await outputLines(s, ids)).toBe(8);
    });
  });

  describe('with task_retention_days', () => {
    const s = useSetup(dialect, { task_retention_days: 30 });

    it('deletes old finished tasks with their output and keeps recent, active and referenced ones', async () => {
      const templateId = await s.p.createTemplate({ playbook: 'noop.sh' });
      const old = daysAgo(31);
      const expired = [
        await insertTask(s, templateId, { status: 'success', created: old, end: old }),
        await insertTask(s, templateId, { status: 'error', created: old, end: old, lines: 12_345 }),
        await insertTask(s, templateId, { status: 'stopped', created: old, end: old }),
        // Rejected before it ever started: no end, its creation time counts.
        await insertTask(s, templateId, { status: 'rejected', created: old, end: null }),
      ];
      const recent = [
        await insertTask(s, templateId, { status: 'success', created: daysAgo(29), end: daysAgo(29) }),
        // Created long ago but ended recently (it waited in the queue): the end counts.
        await insertTask(s, templateId, { status: 'error', created: daysAgo(40), end: daysAgo(2) }),
      ];
      const active = [];
      for (const status of [
        'waiting',
        'starting',
        'waiting_confirmation',
        'confirmed',
        'running',
        'stopping',
      ] as const) {
        active.push(await insertTask(s, templateId, { status, created: daysAgo(500) }));
      }
      // An old build stays while a deploy that is kept names it.
      const build = await insertTask(s, templateId, { status: 'success', created: daysAgo(90), end: daysAgo(90) });
      const deploy = await insertTask(s, templateId, {
        status: 'success',
        created: daysAgo(1),
        end: daysAgo(1),
        build_task_id: build,
      });

      // A Terraform state written by an expired task outlives it, no longer linked to it.
      const inventory = await s.t.request('POST', `${s.p.base}/inventory`, {
        as: s.t.adminCookie,
        body: { name: 'workspace', type: 'static', inventory: 'localhost', ssh_key_id: s.p.noneKeyId },
      });
      expect(inventory.status, JSON.stringify(inventory.body)).toBe(201);
      const { db } = s.t.runtime.connection;
      const stateId = await insertRow(db, dialect, 'terraform_state', {
        project_id: s.p.projectId,
        inventory_id: (inventory.body as { id: number }).id,
        task_id: expired[0]!,
        state: '{"version":4}',
        created: old,
      });

      await s.t.runtime.services.logIndexer.catchUp();
      expect(await indexedLines(s, expired)).toBe(2 + 12_345 + 2 + 2);
      const retention = s.t.runtime.services.taskRetention;
      expect(retention.enabled).toBe(true);
      // Two passes at once, as two cluster nodes would run them: each task is deleted exactly once.
      const removed = await Promise.all([retention.runOnce(), retention.runOnce()]);
      expect(removed[0]! + removed[1]!).toBe(expired.length);

      expect(await remainingTasks(s, expired)).toEqual([]);
      expect(await outputLines(s, expired)).toBe(0);
      expect(await indexedLines(s, expired)).toBe(0);
      const kept = [...recent, ...active, build, deploy];
      // Only finished tasks are in the index: the active ones are not yet.
      expect(await indexedLines(s, [...recent, build, deploy])).toBe(4 * 2);
      expect(await remainingTasks(s, kept)).toEqual([...kept].sort((a, b) => a - b));
      expect(await outputLines(s, kept)).toBe(kept.length * 2);
      const state = await db
        .selectFrom('terraform_state')
        .select(['id', 'task_id'])
        .where('id', '=', stateId)
        .executeTakeFirst();
      expect(state).toEqual({ id: stateId, task_id: null });

      // Nothing more to do on the next pass; the API agrees the task is gone.
      expect(await retention.runOnce()).toBe(0);
      expect((await s.t.request('GET', `${s.p.base}/tasks/${expired[0]!}`, { as: s.t.adminCookie })).status).toBe(404);
    });

    it('start runs a pass at once (the server then repeats it hourly) and stop waits for it', async () => {
      const templateId = await s.p.createTemplate({ playbook: 'noop.sh' });
      const expired = await insertTask(s, templateId, { status: 'success', created: daysAgo(60), end: daysAgo(60) });
      const retention = s.t.runtime.services.taskRetention;
      retention.start();
      try {
        const deadline = Date.now() + 10_000;
        while ((await remainingTasks(s, [expired])).length > 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 25));
      } finally {
        await retention.stop();
      }
      expect(await remainingTasks(s, [expired])).toEqual([]);
    });
  });

  describe('with max_tasks_per_template', () => {
    const s = useSetup(dialect, { max_tasks_per_template: 3 });

    it('keeps the newest finished tasks of each template, active ones and builds a kept deploy uses', async () => {
      const busy = await s.p.createTemplate({ playbook: 'noop.sh' });
      const quiet = await s.p.createTemplate({ playbook: 'noop.sh' });
      const builds = await s.p.createTemplate({ playbook: 'noop.sh' });
      const deploys = await s.p.createTemplate({ playbook: 'noop.sh' });
      const recent = daysAgo(1);

      const running = await insertTask(s, busy, { status: 'running', created: daysAgo(10) });
      const busyFinished = [];
      for (let i = 0; i < 6; i++)
        busyFinished.push(
          await insertTask(s, busy, { status: i % 2 ? 'success' : 'error', created: recent, end: recent }),
        );
      const waiting = await insertTask(s, busy, { status: 'waiting', created: recent });
      const quietFinished = [
        await insertTask(s, quiet, { status: 'success', created: recent, end: recent }),
        await insertTask(s, quiet, { status: 'success', created: recent, end: recent }),
      ];
      const buildTasks = [];
      for (let i = 0; i < 5; i++)
        buildTasks.push(await insertTask(s, builds, { status: 'success', created: recent, end: recent }));
      const deploy = await insertTask(s, deploys, {
        status: 'success',
        created: recent,
        end: recent,
        build_task_id: buildTasks[0]!,
      });

      expect(await s.t.runtime.services.taskRetention.runOnce()).toBe(3 + 1);

      expect(await remainingTasks(s, [running, ...busyFinished, waiting])).toEqual([
        running,
        ...busyFinished.slice(3),
        waiting,
      ]);
      expect(await outputLines(s, busyFinished.slice(0, 3))).toBe(0);
      expect(await remainingTasks(s, quietFinished)).toEqual(quietFinished);
      // The oldest build survives for its deploy; the next one beyond the limit goes.
      expect(await remainingTasks(s, [...buildTasks, deploy])).toEqual([
        buildTasks[0]!,
        ...buildTasks.slice(2),
        deploy,
      ]);
      expect(await outputLines(s, [buildTasks[0]!])).toBe(2);
    });
  });
});
