import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type RunDetail,
  type Step,
  type StepRun,
  createWorkflowCalls,
  createWorkflowElsewhere,
  useRunProjects,
} from './workflow-run-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('retrying workflow runs on %s', (dialect) => {
  const t = useTestApp(dialect);
  // The flaky template fails until this file exists: the fix made between a run and its retry.
  const markers = mkdtempSync(path.join(tmpdir(), 'gantry-retry-'));
  const fixed = path.join(markers, 'fixed');
  afterAll(() => rmSync(markers, { recursive: true, force: true }));
  const { p, other, templates, users, createWorkflow, startRun, waitForRun, runToEnd } = useRunProjects(t, {
    scripts: { ok: 'echo ok\n', fail: 'exit 3\n', flaky: `test -e '${fixed}'\n` },
    otherScripts: { 'fail.sh': 'exit 3\n' },
    members: 'wfretry',
  });

  const send = (method: string, route: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${route}`, { as, ...(body === undefined ? {} : { body }) });
  const step = (key: string, template: keyof typeof templates): Step => ({
    key,
    kind: 'template',
    template_id: templates[template],
  });

  const byKey = (run: RunDetail) => new Map(run.steps.map((s) => [s.key, s]));
  const statuses = (run: RunDetail) => Object.fromEntries(run.steps.map((s) => [s.key, s.status]));
  async function tasksOfRun(runId: number): Promise<string[]> {
    const tasks = (await send('GET', '/tasks')).body as { message: string }[];
    return tasks
      .map((task) => task.message)
      .filter((message) => message.startsWith(`Workflow run ${runId},`))
      .sort();
  }

  it('runs the failed step again and what follows it, keeping the results of the steps that succeeded', async () => {
    rmSync(fixed, { force: true });
    const id = await createWorkflow(
      [step('build', 'ok'), step('deploy', 'flaky'), step('verify', 'ok'), step('lint', 'ok')],
      [
        { from: 'build', to: 'deploy', on: 'success' },
        { from: 'deploy', to: 'verify', on: 'success' },
      ],
      [{ name: 'version', default_value: '1.0' }],
    );
    const failed = await runToEnd(id, { variables: { version: '2.0' } });
    expect(failed.status).toBe('failed');
    expect(statuses(failed)).toEqual({ build: 'success', deploy: 'failed', verify: 'skipped', lint: 'success' });
    expect(failed.retry_of).toBeNull();
    expect(failed.retried_by).toBeNull();

    // The definition changes meanwhile: the retry follows the revision of the run it retries.
    const { name } = (await send('GET', `/workflows/${id}`)).body as { name: string };
    const saved = await send('PUT', `/workflows/${id}`, {
      name,
      variables: [{ name: 'version', default_value: '1.0' }],
      steps: [step('build', 'ok')],
      edges: [],
    });
    expect(saved.status, saved.text).toBe(200);

    const guest = await send('POST', `/workflows/${id}/runs/${failed.id}/retry`, {}, users.guest.cookie);
    expect(guest.status).toBe(403);

    writeFileSync(fixed, '');
    const retried = await send('POST', `/workflows/${id}/runs/${failed.id}/retry`, undefined, users.runner.cookie);
    expect(retried.status, retried.text).toBe(201);
    const started = retried.body as RunDetail;
    expect(started).toMatchObject({
      retry_of: failed.id,
      revision: failed.revision,
      user_id: users.runner.id,
      variables: { version: '2.0' },
    });
    const run = await waitForRun(id, started.id);
    expect(run.status).toBe('success');
    expect(statuses(run)).toEqual({ build: 'success', deploy: 'success', verify: 'success', lint: 'success' });
    const before = byKey(failed);
    const after = byKey(run);
    // The steps that succeeded are not run again: the retry shows their tasks and times.
    for (const key of ['build', 'lint']) {
      expect(after.get(key)).toMatchObject({
        task_id: before.get(key)!.task_id,
        start: before.get(key)!.start,
        end: before.get(key)!.end,
      });
      expect(after.get(key)!.message).toMatch(new RegExp(`^Kept from run ${failed.id}`));
    }
    expect(after.get('deploy')!.task_id).not.toBe(before.get('deploy')!.task_id);
    expect(await tasksOfRun(run.id)).toEqual([
      `Workflow run ${run.id}, step deploy`,
      `Workflow run ${run.id}, step verify`,
    ]);
    expect(((await send('GET', `/workflows/${id}/runs/${failed.id}`)).body as RunDetail).retried_by).toBe(run.id);

    // The history names each task's run and step; a kept task belongs to the run that started it.
    const history = new Map(
      (
        (await send('GET', '/tasks', undefined, users.guest.cookie)).body as { id: number; workflow_run: unknown }[]
      ).map((task) => [task.id, task.workflow_run]),
    );
    expect(history.get(after.get('deploy')!.task_id!)).toEqual({ id: run.id, workflow_id: id, step: 'deploy' });
    expect(history.get(after.get('build')!.task_id!)).toEqual({ id: failed.id, workflow_id: id, step: 'build' });
    expect(history.get(before.get('deploy')!.task_id!)).toEqual({ id: failed.id, workflow_id: id, step: 'deploy' });
    const activity = ((await send('GET', '/events/last')).body as { description: string }[]).map((e) => e.description);
    expect(activity).toEqual(
      expect.arrayContaining([
        `Workflow run ${failed.id} retried as run ${run.id}`,
        `Workflow run ${run.id} finished: success`,
      ]),
    );

    // A run is retried once (retry the retry to go on), and only once it failed or was stopped.
    const twice = await send('POST', `/workflows/${id}/runs/${failed.id}/retry`, {});
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ error: `Run ${failed.id} has already been retried` });
    const succeeded = await send('POST', `/workflows/${id}/runs/${run.id}/retry`, {});
    expect(succeeded.status).toBe(409);
    expect(succeeded.body).toMatchObject({ error: 'Only a failed or stopped run can be retried' });
  });

  it('retries the chosen failed step only, keeping the other failures', async () => {
    rmSync(fixed, { force: true });
    const id = await createWorkflow(
      [step('flaky', 'flaky'), step('broken', 'fail'), step('after', 'ok')],
      [{ from: 'flaky', to: 'after', on: 'success' }],
    );
    const failed = await runToEnd(id);
    expect(statuses(failed)).toEqual({ flaky: 'failed', broken: 'failed', after: 'skipped' });
    const base = `/workflows/${id}/runs/${failed.id}/retry`;
    expect((await send('POST', base, { step: 'after' })).status).toBe(409);
    expect((await send('POST', base, { step: 'nope' })).status).toBe(404);
    const bad = await send('POST', base, { step: 'not a key' });
    expect(bad.status).toBe(400);

    writeFileSync(fixed, '');
    const retried = await send('POST', base, { step: 'flaky' });
    expect(retried.status, retried.text).toBe(201);
    const run = await waitForRun(id, (retried.body as RunDetail).id);
    expect(statuses(run)).toEqual({ flaky: 'success', broken: 'failed', after: 'success' });
    // The kept failure nobody handles still fails the run.
    expect(run.status).toBe('failed');
    expect(byKey(run).get('broken')!.task_id).toBe(byKey(failed).get('broken')!.task_id);
    expect(await tasksOfRun(run.id)).toEqual([
      `Workflow run ${run.id}, step after`,
      `Workflow run ${run.id}, step flaky`,
    ]);
  });

  it('goes on with a stopped run from the steps the stop ended, and keeps approvals given', async () => {
    const id = await createWorkflow(
      [
        { key: 'gate', kind: 'approval', approvers: { user_ids: [users.runner.id] } },
        { key: 'pause', kind: 'wait', seconds: 300 },
        step('last', 'ok'),
      ],
      [
        { from: 'gate', to: 'pause', on: 'success' },
        { from: 'pause', to: 'last', on: 'success' },
      ],
    );
    const runId = (await startRun(id, {})).id;
    const approved = await send(
      'POST',
      `/workflows/${id}/runs/${runId}/steps/gate/approve`,
      { reason: 'fine' },
      users.runner.cookie,
    );
    expect(approved.status, approved.text).toBe(200);
    const running = await send('POST', `/workflows/${id}/runs/${runId}/retry`, {});
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject({ error: 'Only a failed or stopped run can be retried' });
    expect((await send('POST', `/workflows/${id}/runs/${runId}/stop`)).status).toBe(204);

    const retried = await send('POST', `/workflows/${id}/runs/${runId}/retry`, {});
    expect(retried.status, retried.text).toBe(201);
    const run = retried.body as RunDetail & { steps: (StepRun & { approval: { approvals: number } | null })[] };
    expect(statuses(run)).toEqual({ gate: 'success', pause: 'running', last: 'pending' });
    expect(run.steps[0]!.approval).toMatchObject({ approvals: 1, decisions: [{ username: 'wfretry-runner' }] });
    expect((await send('POST', `/workflows/${id}/runs/${run.id}/stop`)).status).toBe(204);
  });

  it('refuses bad ids and runs of other workflows or projects', async () => {
    const id = await createWorkflow([step('a', 'fail')], []);
    const failed = await runToEnd(id);
    expect(failed.status).toBe('failed');
    const otherId = await createWorkflow([step('a', 'ok')], []);
    expect((await send('POST', `/workflows/${otherId}/runs/${failed.id}/retry`, {})).status).toBe(404);
    for (const bad of ['-1', 'abc', '99999999999999999999'])
      expect((await send('POST', `/workflows/${id}/runs/${bad}/retry`, {})).status, bad).toBe(400);
    expect((await send('POST', `/workflows/${id}/runs/2147483647/retry`, {})).status).toBe(404);
    expect((await send('POST', `/workflows/${id}/runs/${failed.id}/retry`, { step: 5 })).status).toBe(400);

    const elsewhereId = await createWorkflowElsewhere(t, other, 'fail.sh');
    const otherRunId = (await createWorkflowCalls(t, () => other.base).startRun(elsewhereId)).id;
    expect((await send('POST', `/workflows/${elsewhereId}/runs/${otherRunId}/retry`, {})).status).toBe(404);
    expect((await send('POST', `/workflows/${id}/runs/${otherRunId}/retry`, {})).status).toBe(404);
  });
});
