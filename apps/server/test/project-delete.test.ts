import { describe, expect, it } from 'vitest';
import { createProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('deleting a project on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('stops its running and queued tasks: nothing keeps running for a project that is gone', async () => {
    const p = await createProjectFixture(t, { 'sleeper.sh': 'echo "going to sleep"; sleep 60 & wait\n' });
    const templateId = await p.createTemplate({ playbook: 'sleeper.sh' });
    const running = await p.runTask(templateId);
    const queued = await p.runTask(templateId);
    await expect.poll(async () => (await p.output(running)).includes('going to sleep'), { timeout: 20_000 }).toBe(true);
    expect(t.runtime.services.engine.isRunningHere(running)).toBe(true);
    // The second task queues behind the first: the template runs one task at a time.
    expect((await p.waitForStatus(queued, ['waiting'])).status).toBe('waiting');
    expect((await t.request('DELETE', p.base, { as: t.adminCookie })).status).toBe(204);
    await expect.poll(() => t.runtime.services.engine.isRunningHere(running), { timeout: 20_000 }).toBe(false);
    expect(t.runtime.services.engine.isRunningHere(queued)).toBe(false);
    expect((await t.request('GET', `${p.base}/tasks/${running}`, { as: t.adminCookie })).status).toBe(404);
  });
});
