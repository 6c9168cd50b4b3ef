import { beforeAll, describe, expect, it } from 'vitest';
import { addProjectMembers } from './task-fixture.ts';
import { type RunDetail, type Step, createWorkflowElsewhere, useRunProjects } from './workflow-run-fixture.ts';
import { createPeerNode, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('workflow runs on %s', (dialect) => {
  const t = useTestApp(dialect);
  const { p, other, templates, users, createWorkflow, startRun, waitForRun, runToEnd } = useRunProjects(t, {
    members: 'wfrun',
    templateFields: { ok: { survey_vars: [{ name: 'ref', title: 'ref' }] } },
  });
  let otherWorkflowId = 0;

  const send = (method: string, path: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${path}`, { as, ...(body === undefined ? {} : { body }) });

  const ok = (key: string, extra: Record<string, unknown> = {}): Step => ({
    key,
    kind: 'template',
    template_id: templates.ok,
    ...extra,
  });
  const fail = (key: string, extra: Record<string, unknown> = {}): Step => ({
    key,
    kind: 'template',
    template_id: templates.fail,
    ...extra,
  });

  const statuses = (run: RunDetail) => Object.fromEntries(run.steps.map((s) => [s.key, s.status]));

  async function templateOfTask(taskId: number | null): Promise<number> {
    const task = await send('GET', `/tasks/${taskId}`);
    expect(task.status).toBe(200);
    return (task.body as { template_id: number }).template_id;
  }

  beforeAll(async () => {
    otherWorkflowId = await createWorkflowElsewhere(t, other, 'ok.sh');
  });

  it('fires success, failure and always edges and skips the branches that cannot run', async () => {
    const id = await createWorkflow(
      [ok('a'), fail('b'), ok('on_a_ok'), ok('on_a_fail'), ok('on_b_fail'), ok('on_b_ok'), ok('after_b')],
      [
        { from: 'a', to: 'on_a_ok', on: 'success' },
        { from: 'a', to: 'on_a_fail', on: 'failure' },
        { from: 'b', to: 'on_b_fail', on: 'failure' },
        { from: 'b', to: 'on_b_ok', on: 'success' },
        { from: 'b', to: 'after_b', on: 'always' },
      ],
    );
    const started = await startRun(id);
    expect(started).toMatchObject({ status: 'running', revision: 1 });
    // The start steps have their tasks as soon as the run is created.
    expect(started.steps.filter((s) => s.task_id !== null).map((s) => s.key)).toEqual(['a', 'b']);
    const run = await waitForRun(id, started.id);
    expect(statuses(run)).toEqual({
      a: 'success',
      b: 'failed',
      on_a_ok: 'success',
      on_a_fail: 'skipped',
      on_b_fail: 'success',
      on_b_ok: 'skipped',
      after_b: 'success',
    });
    // b failed, but a failure edge handles it: the run succeeds.
    expect(run.status).toBe('success');
    const byKey = new Map(run.steps.map((s) => [s.key, s]));
    expect(await templateOfTask(byKey.get('b')!.task_id)).toBe(templates.fail);
    expect(await templateOfTask(byKey.get('on_b_fail')!.task_id)).toBe(templates.ok);
    expect(byKey.get('on_a_fail')!.task_id).toBeNull();
    // A follower starts only after the step it follows ended.
    expect(byKey.get('on_a_ok')!.start! >= byKey.get('a')!.end!).toBe(true);

    const listed = await send('GET', `/workflows/${id}/runs`, undefined, users.guest.cookie);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: run.id, status: 'success', workflow_id: id })]);
  });

  it('fails a run whose failed step no edge handles', async () => {
    const id = await createWorkflow([fail('a'), ok('b')], [{ from: 'a', to: 'b', on: 'success' }]);
    const run = await runToEnd(id);
    expect(run.status).toBe('failed');
    expect(statuses(run)).toEqual({ a: 'failed', b: 'skipped' });
    expect(run.steps[0]!.message).toBe('Task error');
  });

  it('joins all on every edge firing and any on the first, skipping cascades', async () => {
    const id = await createWorkflow(
      [
        ok('good'),
        fail('bad'),
        ok('all_both_ok', { join: 'all' }),
        ok('any_one_ok', { join: 'any' }),
        ok('all_matched', { join: 'all' }),
        ok('any_none', { join: 'any' }),
        ok('after_skip'),
      ],
      [
        { from: 'good', to: 'all_both_ok', on: 'success' },
        { from: 'bad', to: 'all_both_ok', on: 'success' },
        { from: 'good', to: 'any_one_ok', on: 'success' },
        { from: 'bad', to: 'any_one_ok', on: 'success' },
        { from: 'good', to: 'all_matched', on: 'success' },
        { from: 'bad', to: 'all_matched', on: 'failure' },
        { from: 'good', to: 'any_none', on: 'failure' },
        { from: 'bad', to: 'any_none', on: 'success' },
        { from: 'any_none', to: 'after_skip', on: 'always' },
      ],
    );
    const run = await runToEnd(id);
    expect(statuses(run)).toEqual({
      good: 'success',
      bad: 'failed',
      all_both_ok: 'skipped',
      any_one_ok: 'success',
      all_matched: 'success',
      any_none: 'skipped',
      // An always edge from a skipped step never fires.
      after_skip: 'skipped',
    });
    expect(run.status).toBe('success');
  });

  it('waits the fixed time of a wait step, held as a due time in the store, and passes variables to templates', async () => {
    const id = await createWorkflow(
      [
        { key: 'pause', kind: 'wait', seconds: 1 },
        ok('after', { inputs: [{ variable: 'ref', source: 'variable', name: 'version' }] }),
      ],
      [{ from: 'pause', to: 'after', on: 'success' }],
      [{ name: 'version', required: true }],
    );
    const started = await startRun(id, { variables: { version: 'v1.2' } });
    expect(started.variables).toEqual({ version: 'v1.2' });
    const pause = started.steps[0]!;
    expect(pause.status).toBe('running');
    expect(Date.parse(pause.due!) - Date.parse(pause.start!)).toBe(1000);
    const run = await waitForRun(id, started.id);
    expect(statuses(run)).toEqual({ pause: 'success', after: 'success' });
    const after = run.steps[1]!;
    expect(after.start! >= pause.due!).toBe(true);
    const task = (await send('GET', `/tasks/${after.task_id}`)).body as { environment: string; message: string };
    expect(JSON.parse(task.environment)).toEqual({ ref: 'v1.2' });
    expect(task.message).toBe(`Workflow run ${run.id}, step after`);
  });

  it('starts no later step for a starter who may no longer run tasks, and says so on the step', async () => {
    const { starter } = await addProjectMembers(t, p.base, `wfdemote-${dialect}`, { starter: 'task_runner' });
    const id = await createWorkflow(
      [{ key: 'pause', kind: 'wait', seconds: 1 }, ok('after')],
      [{ from: 'pause', to: 'after', on: 'success' }],
    );
    const started = await startRun(id, {}, starter.cookie);
    const demoted = await send('PUT', `/users/${starter.id}`, { role: 'guest' });
    expect(demoted.status, demoted.text).toBe(204);
    const run = await waitForRun(id, started.id);
    const after = run.steps.find((step) => step.key === 'after')!;
    expect(after).toMatchObject({
      status: 'failed',
      task_id: null,
      message: 'Who started the run may no longer run tasks in this project',
    });
  });

  it('stops a run: its running task is stopped and its other steps never start', async () => {
    const id = await createWorkflow(
      [{ key: 'slow', kind: 'template', template_id: templates.slow }, ok('next')],
      [{ from: 'slow', to: 'next', on: 'always' }],
    );
    const started = await startRun(id, undefined, users.runner.cookie);
    expect(started.user_id).toBe(users.runner.id);
    const taskId = started.steps[0]!.task_id!;
    await p.waitForStatus(taskId, ['running']);
    expect((await send('POST', `/workflows/${id}/runs/${started.id}/stop`, undefined, users.guest.cookie)).status).toBe(
      403,
    );
    expect(
      (await send('POST', `/workflows/${id}/runs/${started.id}/stop`, undefined, users.runner.cookie)).status,
    ).toBe(204);
    await p.waitForStatus(taskId, ['stopped']);
    const run = (await send('GET', `/workflows/${id}/runs/${started.id}`)).body as RunDetail;
    expect(run.status).toBe('stopped');
    expect(statuses(run)).toEqual({ slow: 'stopped', next: 'stopped' });
    expect(run.steps[1]!.task_id).toBeNull();
    const again = await send('POST', `/workflows/${id}/runs/${started.id}/stop`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(expect.objectContaining({ error: 'The workflow run has already ended' }));
  });

  it('resumes a run on another engine after its engine died, starting each step once', async () => {
    const id = await createWorkflow([ok('first'), ok('second')], [{ from: 'first', to: 'second', on: 'success' }]);
    // The engine of this node stops looking at runs, as if the server died after starting the first task.
    await t.runtime.services.workflowRuns.endSweep();
    const started = await startRun(id);
    await p.waitForStatus(started.steps[0]!.task_id!, ['success']);
    const stuck = (await send('GET', `/workflows/${id}/runs/${started.id}`)).body as RunDetail;
    expect(statuses(stuck)).toEqual({ first: 'running', second: 'pending' });

    const peer = await createPeerNode(t);
    try {
      peer.runtime.services.workflowRuns.beginSweep();
      // Both engines look at the run at once as well: the conditional claims let one of them start each step.
      await Promise.all([
        t.runtime.services.workflowRuns.advance(started.id),
        t.runtime.services.workflowRuns.advance(started.id),
        peer.runtime.services.workflowRuns.advance(started.id),
      ]);
      const run = await waitForRun(id, started.id, peer);
      expect(run.status).toBe('success');
      expect(statuses(run)).toEqual({ first: 'success', second: 'success' });
      const tasks = (await send('GET', '/tasks')).body as { message: string }[];
      const ofRun = tasks.filter((task) => task.message.startsWith(`Workflow run ${run.id},`)).map((x) => x.message);
      expect(ofRun.sort()).toEqual([`Workflow run ${run.id}, step first`, `Workflow run ${run.id}, step second`]);
    } finally {
      await peer.close();
      t.runtime.services.workflowRuns.beginSweep();
    }
  });

  it('refuses guests, other projects, bad ids and bad variables with clear answers', async () => {
    const id = await createWorkflow([ok('a')], [], [{ name: 'version', required: true }]);
    const guest = await send('POST', `/workflows/${id}/runs`, { variables: { version: '1' } }, users.guest.cookie);
    expect(guest.status).toBe(403);
    const unknown = await send('POST', `/workflows/${id}/runs`, { variables: { version: '1', nope: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(expect.objectContaining({ error: 'Unknown workflow variables: nope' }));
    const missing = await send('POST', `/workflows/${id}/runs`, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(expect.objectContaining({ error: 'Required workflow variables missing: version' }));
    const badName = await send('POST', `/workflows/${id}/runs`, { variables: { 'a b': 'x' } });
    expect(badName.status).toBe(400);

    // Another project's workflow, through this project, is not found.
    expect((await send('POST', `/workflows/${otherWorkflowId}/runs`, {})).status).toBe(404);
    expect((await send('GET', `/workflows/${otherWorkflowId}/runs`)).status).toBe(404);
    const otherRun = await t.request('POST', `${other.base}/workflows/${otherWorkflowId}/runs`, { as: t.adminCookie });
    expect(otherRun.status, otherRun.text).toBe(201);
    const otherRunId = (otherRun.body as { id: number }).id;
    expect((await send('GET', `/workflows/${id}/runs/${otherRunId}`)).status).toBe(404);
    expect((await send('POST', `/workflows/${id}/runs/${otherRunId}/stop`)).status).toBe(404);
    // A member of this project only is not a member of the other one.
    const outsider = await t.request('GET', `${other.base}/workflows/${otherWorkflowId}/runs/${otherRunId}`, {
      as: users.runner.cookie,
    });
    expect(outsider.status).toBe(404);

    for (const bad of ['-1', 'abc', '99999999999999999999', '1.5'])
      expect((await send('GET', `/workflows/${id}/runs/${bad}`)).status, bad).toBe(400);
    for (const missingId of ['0', '2147483647'])
      expect((await send('GET', `/workflows/${id}/runs/${missingId}`)).status, missingId).toBe(404);
    expect((await send('POST', `/workflows/2147483647/runs`, {})).status).toBe(404);
    expect((await send('POST', `/workflows/${id}/runs/99999999999999999999/stop`)).status).toBe(400);
  });

  it('deletes the runs of a deleted workflow, and of a deleted project', async () => {
    const id = await createWorkflow([ok('a')], []);
    const run = await runToEnd(id);
    expect(run.status).toBe('success');
    expect((await send('DELETE', `/workflows/${id}`)).status).toBe(204);
    expect((await send('GET', `/workflows/${id}/runs/${run.id}`)).status).toBe(404);
    // The other project holds a run (started above): it goes with the project.
    expect((await t.request('DELETE', other.base, { as: t.adminCookie })).status).toBe(204);
    const { db } = t.runtime.connection;
    const left = await db.selectFrom('workflow_run').select('id').where('project_id', '=', other.projectId).execute();
    expect(left).toEqual([]);
  });
});
