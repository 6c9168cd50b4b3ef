import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

// Runs until the test creates the flag file, so the tasks queued behind it stay waiting as long as needed.
const SCRIPTS = { 'hold.sh': 'while [ ! -e "$1" ]; do sleep 0.05; done\necho released\n' };

describe.each(dialects)('stopping all waiting tasks on %s', (dialect) => {
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, SCRIPTS);
  let flagDir: string;
  let flagCount = 0;

  beforeAll(async () => {
    flagDir = mkdtempSync(join(tmpdir(), 'gantry-stop-waiting-'));
  });
  afterAll(async () => {
    rmSync(flagDir, { recursive: true, force: true });
  });

  /** A one-at-a-time template whose running task holds until `release` is called. */
  async function createHeldTemplate(): Promise<{ templateId: number; release: () => void }> {
    const flag = join(flagDir, `flag-${(flagCount += 1)}`);
    const templateId = await p.createTemplate({ playbook: 'hold.sh', arguments: JSON.stringify([flag]) });
    return { templateId, release: () => writeFileSync(flag, '') };
  }

  async function statusOf(taskId: number): Promise<string> {
    return String(
      ((await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).body as { status: string }).status,
    );
  }

  it('stops every waiting task of the project and leaves the running one to finish', async () => {
    const { templateId, release } = await createHeldTemplate();
    const running = await p.runTask(templateId);
    await p.waitForStatus(running, ['running']);
    const queued = [await p.runTask(templateId), await p.runTask(templateId), await p.runTask(templateId)];
    for (const id of queued) expect(await statusOf(id)).toBe('waiting');

    const response = await t.request('POST', `${p.base}/tasks/stop_waiting`, { as: t.adminCookie, body: {} });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ stopped: 3 });
    for (const id of queued) {
      const task = await p.waitForStatus(id, ['stopped']);
      expect(task.start).toBeNull();
      expect(task.end).toEqual(expect.any(String));
    }
    expect(await statusOf(running)).toBe('running');

    release();
    expect((await p.waitForStatus(running, ['success', 'error', 'stopped'])).status).toBe('success');
    expect(await p.output(running)).toContain('released');
    // Nothing is left to stop, and calling without a body is allowed.
    expect((await t.request('POST', `${p.base}/tasks/stop_waiting`, { as: t.adminCookie })).body).toEqual({
      stopped: 0,
    });
  });

  it('with template_id stops only the waiting tasks of that template', async () => {
    const first = await createHeldTemplate();
    const second = await createHeldTemplate();
    const firstRunning = await p.runTask(first.templateId);
    const secondRunning = await p.runTask(second.templateId);
    await p.waitForStatus(firstRunning, ['running']);
    await p.waitForStatus(secondRunning, ['running']);
    const firstQueued = [await p.runTask(first.templateId), await p.runTask(first.templateId)];
    const secondQueued = await p.runTask(second.templateId);

    const response = await t.request('POST', `${p.base}/tasks/stop_waiting`, {
      as: t.adminCookie,
      body: { template_id: first.templateId },
    });
    expect(response.body).toEqual({ stopped: 2 });
    for (const id of firstQueued) await p.waitForStatus(id, ['stopped']);
    expect(await statusOf(secondQueued)).toBe('waiting');
    expect(await statusOf(firstRunning)).toBe('running');

    first.release();
    second.release();
    await p.waitForStatus(firstRunning, ['success']);
    await p.waitForStatus(secondRunning, ['success']);
    // The second template's queued task was never stopped, so it runs once its predecessor is done.
    expect((await p.waitForStatus(secondQueued, ['success', 'error', 'stopped'])).status).toBe('success');
  });

  it('answers 400 with a clear error for a template that is not in the project or an invalid id', async () => {
    const unknown = await t.request('POST', `${p.base}/tasks/stop_waiting`, {
      as: t.adminCookie,
      body: { template_id: 999_999 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error: 'Template not found in this project' });
    // An id past the integer columns' range names no template either (PostgreSQL would refuse it in the query).
    expect(
      await t.request('POST', `${p.base}/tasks/stop_waiting`, { as: t.adminCookie, body: { template_id: 2 ** 31 } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'Template not found in this project' },
    });
    const invalid = await t.request('POST', `${p.base}/tasks/stop_waiting`, {
      as: t.adminCookie,
      body: { template_id: 'all' },
    });
    expect(invalid.status).toBe(400);
    expect((invalid.body as { error: string }).error).toContain('template_id must be a positive integer');
  });

  it('is allowed to task runners, forbidden to guests, hidden from non-members and refused to anonymous callers', async () => {
    const runner = await t.createUser('stop-runner');
    const guest = await t.createUser('stop-guest');
    const outsider = await t.createUser('stop-outsider');
    await addMember(t, p.base, runner.id, 'task_runner');
    await addMember(t, p.base, guest.id, 'guest');
    const { templateId, release } = await createHeldTemplate();
    const running = await p.runTask(templateId);
    await p.waitForStatus(running, ['running']);
    const queued = await p.runTask(templateId);

    const url = `${p.base}/tasks/stop_waiting`;
    expect((await t.request('POST', url, { as: guest.cookie, body: {} })).status).toBe(403);
    expect((await t.request('POST', url, { as: outsider.cookie, body: {} })).status).toBe(404);
    expect((await t.request('POST', url, { body: {} })).status).toBe(401);
    expect(await statusOf(queued)).toBe('waiting');

    const allowed = await t.request('POST', url, { as: runner.cookie, body: { template_id: templateId } });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({ stopped: 1 });
    await p.waitForStatus(queued, ['stopped']);
    release();
    await p.waitForStatus(running, ['success']);
  });
});
