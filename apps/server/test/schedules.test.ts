import { beforeAll, describe, expect, it } from 'vitest';
import { emptyRefs } from '@gantry/contract';
import type { Clock } from '../src/clock.ts';
import { createProjectFixture, useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

function createFakeClock(start: string): Clock & { set(time: string): void } {
  let current = new Date(start);
  return { now: () => new Date(current), set: (time) => (current = new Date(time)) };
}

describe.each(dialects)('schedules on %s', (dialect) => {
  const clock = createFakeClock('2026-06-01T10:02:00Z');
  let templateId = 0;

  const t = useTestApp(dialect, {}, { clock });
  const p = useProjectFixture(t, { 'run.sh': 'echo scheduled\n' });
  beforeAll(async () => {
    templateId = await p.createTemplate({ name: 'Nightly', playbook: 'run.sh', allow_parallel_tasks: true });
  });

  const tasksOf = async (scheduleId: number) =>
    (
      (await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as { schedule_id: number | null }[]
    ).filter((x) => x.schedule_id === scheduleId);
  /** Moves the clock to `time`, runs one scheduler tick and counts the tasks the schedule has started so far. */
  const tasksAfterTickAt = async (time: string, scheduleId: number) => {
    clock.set(time);
    await t.runtime.services.scheduler.tick();
    return (await tasksOf(scheduleId)).length;
  };

  async function createSchedule(body: Record<string, unknown>): Promise<{ id: number; next_run: string | null }> {
    const response = await t.request('POST', `${p.base}/schedules`, {
      as: t.adminCookie,
      body: { name: 'S', template_id: templateId, active: true, ...body },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: number; next_run: string | null };
  }

  it('validates schedules with the seed messages and shows the next runs', async () => {
    const post = (body: Record<string, unknown>) =>
      t.request('POST', `${p.base}/schedules`, {
        as: t.adminCookie,
        body: { name: 'S', template_id: templateId, ...body },
      });
    expect((await post({ cron_format: '' })).body).toMatchObject({ error: 'Cron required' });
    expect((await post({ cron_format: 'every minute' })).body).toMatchObject({
      error: expect.stringMatching(/^Cron: /),
    });
    expect((await post({ cron_format: '0 * * * * *' })).body).toMatchObject({
      error: expect.stringMatching(/^Cron: expected five fields/),
    });
    expect((await post({ cron_format: '* * * * *', name: '' })).body).toMatchObject({ error: 'Name is required' });
    expect((await post({ cron_format: '* * * * *', template_id: 999999 })).body).toMatchObject({
      error: 'Template not found in this project',
    });
    const valid = await t.request('POST', `${p.base}/schedules/validate`, {
      as: t.adminCookie,
      body: { cron_format: '@hourly' },
    });
    expect(valid.body).toEqual({
      next_runs: [
        '2026-06-01T11:00:00.000Z',
        '2026-06-01T12:00:00.000Z',
        '2026-06-01T13:00:00.000Z',
        '2026-06-01T14:00:00.000Z',
        '2026-06-01T15:00:00.000Z',
      ],
    });
    expect(
      (
        await t.request('POST', `${p.base}/schedules/validate`, {
          as: t.adminCookie,
          body: { cron_format: '61 * * * *' },
        })
      ).status,
    ).toBe(400);
  });

  it('fires each due time exactly once, even when two schedulers look at the same moment', async () => {
    clock.set('2026-06-01T10:02:00Z');
    const schedule = await createSchedule({
      cron_format: '*/5 * * * *',
      task_params: { message: 'from cron', environment: '{"who":"cron"}' },
    });
    expect(schedule.next_run).toBe('2026-06-01T10:05:00.000Z');
    expect(await tasksAfterTickAt('2026-06-01T10:04:59Z', schedule.id)).toBe(0);

    clock.set('2026-06-01T10:05:00.200Z');
    const claims = await Promise.all([
      t.runtime.services.scheduler.tick(),
      t.runtime.services.scheduler.tick(),
      t.runtime.services.scheduler.tick(),
    ]);
    expect(claims.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const fired = await tasksOf(schedule.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ message: 'from cron', user_id: null, environment: '{"who":"cron"}' });

    expect(await tasksAfterTickAt('2026-06-01T10:09:59Z', schedule.id)).toBe(1);
    expect(await tasksAfterTickAt('2026-06-01T10:10:01Z', schedule.id)).toBe(2);
    await t.request('DELETE', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie });
  });

  it('inactive schedules never fire; switching one on starts from now, not from the past', async () => {
    clock.set('2026-06-02T08:00:30Z');
    const schedule = await createSchedule({ cron_format: '* * * * *', active: false });
    expect(await tasksAfterTickAt('2026-06-02T08:03:00Z', schedule.id)).toBe(0);
    expect(
      (
        await t.request('PUT', `${p.base}/schedules/${schedule.id}/active`, {
          as: t.adminCookie,
          body: { active: true },
        })
      ).status,
    ).toBe(204);
    expect((await t.request('GET', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie })).body).toMatchObject({
      active: true,
      next_run: '2026-06-02T08:04:00.000Z',
    });
    expect(await tasksAfterTickAt('2026-06-02T08:04:00Z', schedule.id)).toBe(1);
    await t.request('DELETE', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie });
  });

  it('after downtime the missed runs are skipped, not replayed in a burst', async () => {
    clock.set('2026-06-03T00:00:30Z');
    const schedule = await createSchedule({ cron_format: '* * * * *' });
    clock.set('2026-06-03T03:00:30Z');
    expect(await t.runtime.services.scheduler.tick()).toBe(1);
    expect(await tasksOf(schedule.id)).toHaveLength(0);
    expect((await t.request('GET', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie })).body).toMatchObject({
      next_run: '2026-06-03T03:01:00.000Z',
    });
    expect(await tasksAfterTickAt('2026-06-03T03:01:00Z', schedule.id)).toBe(1);
    await t.request('DELETE', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie });
  });

  it('"run on new commit" starts the template only when the branch head changed', async () => {
    clock.set('2026-06-04T12:00:30Z');
    const schedule = await createSchedule({ cron_format: '* * * * *', repository_id: p.repositoryId });
    expect(await tasksAfterTickAt('2026-06-04T12:01:00Z', schedule.id)).toBe(1);
    expect(await tasksAfterTickAt('2026-06-04T12:02:00Z', schedule.id)).toBe(1);
    p.commit({ 'run.sh': 'echo changed\n' }, 'change');
    expect(await tasksAfterTickAt('2026-06-04T12:03:00Z', schedule.id)).toBe(2);
    expect(await tasksAfterTickAt('2026-06-04T12:04:00Z', schedule.id)).toBe(2);
    await t.request('DELETE', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie });
  });

  it('lists schedules with their template, per project and per template; repository refs name them', async () => {
    const schedule = await createSchedule({ name: 'Listed', cron_format: '@daily', repository_id: p.repositoryId });
    const all = (await t.request('GET', `${p.base}/schedules`, { as: t.adminCookie })).body as {
      id: number;
      tpl_name: string;
    }[];
    expect(all).toEqual(expect.arrayContaining([expect.objectContaining({ id: schedule.id, tpl_name: 'Nightly' })]));
    expect((await t.request('GET', `${p.base}/templates/${templateId}/schedules`, { as: t.adminCookie })).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: schedule.id })]),
    );
    const refs = (await t.request('GET', `${p.base}/repositories/${p.repositoryId}/refs`, { as: t.adminCookie }))
      .body as { schedules: { name: string }[] };
    expect(refs.schedules.map((s) => s.name)).toContain('Listed');
    const put = await t.request('PUT', `${p.base}/schedules/${schedule.id}`, {
      as: t.adminCookie,
      body: { name: 'Renamed', template_id: templateId, cron_format: '@hourly' },
    });
    expect(put.status).toBe(204);
    expect((await t.request('GET', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie })).body).toMatchObject({
      name: 'Renamed',
      repository_id: null,
    });
  });

  it('a schedule answers its refs (nothing uses a schedule) before it is deleted; a deleted one is not found', async () => {
    const schedule = await createSchedule({ name: 'Short-lived', cron_format: '@daily' });
    const refs = await t.request('GET', `${p.base}/schedules/${schedule.id}/refs`, { as: t.adminCookie });
    expect(refs.status).toBe(200);
    expect(refs.body).toEqual(emptyRefs());
    expect((await t.request('DELETE', `${p.base}/schedules/${schedule.id}`, { as: t.adminCookie })).status).toBe(204);
    const gone = await t.request('GET', `${p.base}/schedules/${schedule.id}/refs`, { as: t.adminCookie });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: expect.any(String) });
    expect([400, 404]).toContain(
      (await t.request('GET', `${p.base}/schedules/99999999999/refs`, { as: t.adminCookie })).status,
    );
  });
});

describe('schedule time zones', () => {
  const clock = createFakeClock('2026-03-28T12:00:00Z');

  // The fake clock jumps months ahead; the test session must outlive that.
  const t = useTestApp(
    'sqlite',
    { schedule_timezone: 'Europe/Berlin', session_idle_minutes: 10_000_000, session_max_age_minutes: 10_000_000 },
    { clock },
  );
  const p = useProjectFixture(t, { 'run.sh': 'true\n' });

  it('counts cron times in the configured zone and fires once across both DST changes', async () => {
    const templateId = await p.createTemplate({ playbook: 'run.sh', allow_parallel_tasks: true });
    const created = await t.request('POST', `${p.base}/schedules`, {
      as: t.adminCookie,
      body: { name: 'DST', template_id: templateId, cron_format: '30 2 * * *', active: true },
    });
    const id = (created.body as { id: number }).id;
    const nextRun = async () =>
      ((await t.request('GET', `${p.base}/schedules/${id}`, { as: t.adminCookie })).body as { next_run: string })
        .next_run;
    // 02:30 does not exist in Berlin on 29 March 2026 (clocks go 02:00 -> 03:00): the run is not lost.
    expect(await nextRun()).toBe('2026-03-29T01:30:00.000Z');
    clock.set('2026-03-29T01:30:00Z');
    await t.runtime.services.scheduler.tick();
    expect(await nextRun()).toBe('2026-03-30T00:30:00.000Z');

    // 02:30 happens twice on 25 October 2026 (03:00 -> 02:00): it fires once.
    clock.set('2026-10-24T12:00:00Z');
    await t.request('PUT', `${p.base}/schedules/${id}/active`, { as: t.adminCookie, body: { active: true } });
    const before = ((await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as unknown[]).length;
    for (const time of ['2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z', '2026-10-25T02:30:00Z']) {
      clock.set(time);
      await t.runtime.services.scheduler.tick();
    }
    const after = ((await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as unknown[]).length;
    expect(after - before).toBe(1);
  });
});

describe('a real schedule on the wall clock', () => {
  const t = useTestApp('sqlite');

  it('a "* * * * *" schedule starts a task within a minute', { timeout: 75_000 }, async () => {
    const p = await createProjectFixture(t, { 'run.sh': 'echo tick\n' });
    const templateId = await p.createTemplate({ playbook: 'run.sh' });
    await t.request('POST', `${p.base}/schedules`, {
      as: t.adminCookie,
      body: { name: 'Every minute', template_id: templateId, cron_format: '* * * * *', active: true },
    });
    t.runtime.services.scheduler.start();
    await expect
      .poll(
        async () =>
          ((await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as { status: string }[]).some(
            (x) => x.status === 'success',
          ),
        {
          timeout: 70_000,
          interval: 500,
        },
      )
      .toBe(true);
  });
});
