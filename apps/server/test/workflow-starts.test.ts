import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/clock.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';
import { createWorkflowCalls, createWorkflowElsewhere } from './workflow-run-fixture.ts';

const dialects = await listTestDialects();

function createFakeClock(start: string): Clock & { set(time: string): void } {
  let current = new Date(start);
  return { now: () => new Date(current), set: (time) => (current = new Date(time)) };
}

interface Run {
  id: number;
  status: string;
  user_id: number | null;
  schedule_id: number | null;
  integration_id: number | null;
  variables: Record<string, string>;
  steps: { key: string; status: string; task_id: number | null }[];
}

describe.each(dialects)('schedules and integrations starting workflows on %s', (dialect) => {
  const clock = createFakeClock('2026-06-01T10:02:00Z');
  const t = useTestApp(dialect, {}, { clock });
  let p: ProjectFixture;
  let other: ProjectFixture;
  let templateId = 0;
  let workflowId = 0;
  let otherWorkflowId = 0;
  let guestCookie = '';

  const send = (method: string, route: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${route}`, { as, ...(body === undefined ? {} : { body }) });
  const runsOf = async (id = workflowId) => (await send('GET', `/workflows/${id}/runs`)).body as Run[];
  const workflowCalls = createWorkflowCalls(t, () => p.base);
  const waitForRun = (runId: number, id = workflowId) => workflowCalls.waitForRun(id, runId);

  beforeAll(async () => {
    t.runtime.services.workflowRuns.beginSweep();
    p = await createProjectFixture(t, { 'run.sh': 'echo "version $1"\n' });
    other = await createProjectFixture(t, { 'run.sh': 'true\n' });
    templateId = await p.createTemplate({
      name: 'Deploy',
      playbook: 'run.sh',
      allow_parallel_tasks: true,
      survey_vars: [{ name: 'ref', title: 'ref' }],
    });
    const created = await send('POST', '/workflows', {
      name: 'Nightly release',
      variables: [{ name: 'version', required: true }],
      steps: [
        {
          key: 'deploy',
          kind: 'template',
          template_id: templateId,
          inputs: [{ variable: 'ref', source: 'variable', name: 'version' }],
        },
      ],
    });
    expect(created.status, created.text).toBe(201);
    workflowId = (created.body as { id: number }).id;
    otherWorkflowId = await createWorkflowElsewhere(t, other, 'run.sh');
    const guest = await t.createUser('wfstart-guest');
    expect((await send('POST', '/users', { user_id: guest.id, role: 'guest' })).status).toBe(204);
    guestCookie = guest.cookie;
  });

  it('a schedule of a workflow starts one run per due time, across schedulers, with its variables', async () => {
    clock.set('2026-06-01T10:02:00Z');
    const created = await send('POST', '/schedules', {
      name: 'Release at five',
      workflow_id: workflowId,
      cron_format: '*/5 * * * *',
      active: true,
      task_params: { variables: { version: '3.1' } },
    });
    expect(created.status, created.text).toBe(201);
    const schedule = created.body as Record<string, unknown> & { id: number };
    expect(schedule).toMatchObject({ workflow_id: workflowId, template_id: null, tpl_name: '' });
    const listed = (await send('GET', '/schedules')).body as { id: number }[];
    expect(listed.map((s) => s.id)).toContain(schedule.id);

    const before = (await runsOf()).length;
    clock.set('2026-06-01T10:05:00.200Z');
    await Promise.all([
      t.runtime.services.scheduler.tick(),
      t.runtime.services.scheduler.tick(),
      t.runtime.services.scheduler.tick(),
    ]);
    const runs = await runsOf();
    expect(runs).toHaveLength(before + 1);
    expect(runs[0]).toMatchObject({
      schedule_id: schedule.id,
      integration_id: null,
      user_id: null,
      variables: { version: '3.1' },
    });
    const run = await waitForRun(runs[0]!.id);
    expect(run.status).toBe('success');
    const task = (await send('GET', `/tasks/${run.steps[0]!.task_id}`)).body as {
      schedule_id: number | null;
      environment: string;
    };
    expect(task.schedule_id).toBe(schedule.id);
    expect(JSON.parse(task.environment)).toEqual({ ref: '3.1' });

    clock.set('2026-06-01T10:09:59Z');
    await t.runtime.services.scheduler.tick();
    expect(await runsOf()).toHaveLength(before + 1);
    expect((await send('DELETE', `/schedules/${schedule.id}`)).status).toBe(204);
  });

  it('a template schedule answers as before, without a workflow field', async () => {
    const created = await send('POST', '/schedules', {
      name: 'Plain',
      template_id: templateId,
      cron_format: '@daily',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ template_id: templateId, tpl_name: 'Deploy' });
    expect(Object.keys(created.body as object)).not.toContain('workflow_id');
    expect((await send('DELETE', `/schedules/${(created.body as { id: number }).id}`)).status).toBe(204);
  });

  it('refuses workflow schedules with bad targets or variables, and guests', async () => {
    const post = (body: Record<string, unknown>, as = t.adminCookie) =>
      send('POST', '/schedules', { name: 'S', cron_format: '@daily', ...body }, as);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ workflow_id: otherWorkflowId }, 400, 'Workflow not found in this project'],
      [{ workflow_id: 2147483647 }, 400, 'Workflow not found in this project'],
      [{ workflow_id: 'abc' }, 400, ''],
      [{ workflow_id: -1 }, 400, ''],
      [
        { workflow_id: workflowId, template_id: templateId },
        400,
        'Either a template or a workflow is required, not both',
      ],
      [{}, 400, 'Template is required'],
      [{ workflow_id: workflowId }, 400, 'Required workflow variables missing: version'],
      [
        { workflow_id: workflowId, task_params: { variables: { version: '1', nope: 'x' } } },
        400,
        'Unknown workflow variables: nope',
      ],
      [{ workflow_id: workflowId, task_params: { variables: { version: 5 } } }, 400, ''],
    ];
    for (const [body, status, error] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      if (error) expect(response.body, JSON.stringify(body)).toMatchObject({ error });
    }
    const guest = await post({ workflow_id: workflowId, task_params: { variables: { version: '1' } } }, guestCookie);
    expect(guest.status).toBe(403);
  });

  it('deleting a workflow deletes its schedules', async () => {
    const created = await send('POST', '/workflows', {
      name: 'Short lived',
      steps: [{ key: 'a', kind: 'template', template_id: templateId }],
    });
    const id = (created.body as { id: number }).id;
    const schedule = await send('POST', '/schedules', { name: 'Gone', workflow_id: id, cron_format: '@daily' });
    expect(schedule.status, schedule.text).toBe(201);
    expect((await send('DELETE', `/workflows/${id}`)).status).toBe(204);
    expect((await send('GET', `/schedules/${(schedule.body as { id: number }).id}`)).status).toBe(404);
  });

  it('a webhook integration of a workflow starts a run with its variables and the values it extracts', async () => {
    const created = await send('POST', '/integrations', {
      name: 'Release hook',
      workflow_id: workflowId,
      task_params: { variables: { version: 'from-params' } },
    });
    expect(created.status, created.text).toBe(201);
    const integration = created.body as { id: number; template_id: number | null; workflow_id?: number };
    expect(integration).toMatchObject({ template_id: null, workflow_id: workflowId });
    expect(
      (
        await send('POST', `/integrations/${integration.id}/values`, {
          name: 'Version',
          value_source: 'body',
          body_data_type: 'json',
          key: 'release.tag',
          variable: 'version',
        })
      ).status,
    ).toBe(201);
    const aliasUrl = ((await send('POST', `/integrations/${integration.id}/aliases`)).body as { url: string }).url;
    const alias = aliasUrl.slice(aliasUrl.lastIndexOf('/') + 1);

    const before = (await runsOf()).length;
    const hooked = await t.request('POST', `/api/integrations/${alias}`, {
      rawBody: JSON.stringify({ release: { tag: 'v9' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(hooked.status, hooked.text).toBe(204);
    const runId = Number(hooked.headers['x-gantry-workflow-run-id']);
    expect(hooked.headers['x-gantry-workflow-id']).toBe(String(workflowId));
    expect(hooked.headers['x-gantry-task-id']).toBeUndefined();
    const runs = await runsOf();
    expect(runs).toHaveLength(before + 1);
    expect(runs[0]).toMatchObject({
      id: runId,
      integration_id: integration.id,
      schedule_id: null,
      user_id: null,
      variables: { version: 'v9' },
    });
    const run = await waitForRun(runId);
    expect(run.status).toBe('success');
    const task = (await send('GET', `/tasks/${run.steps[0]!.task_id}`)).body as { environment: string };
    expect(JSON.parse(task.environment)).toEqual({ ref: 'v9' });

    // Without the value, the stored variables apply.
    const plain = await t.request('POST', `/api/integrations/${alias}`, { rawBody: '{}' });
    const plainRun = (await send('GET', `/workflows/${workflowId}/runs/${plain.headers['x-gantry-workflow-run-id']}`))
      .body as Run;
    expect(plainRun.variables).toEqual({ version: 'from-params' });
    await waitForRun(plainRun.id);
  });

  it('refuses workflow integrations with bad targets or variables, and guests', async () => {
    const post = (body: Record<string, unknown>, as = t.adminCookie) =>
      send('POST', '/integrations', { name: 'I', ...body }, as);
    const cases: [Record<string, unknown>, string][] = [
      [{ workflow_id: otherWorkflowId }, 'Workflow not found in this project'],
      [{ workflow_id: 2147483647 }, 'Workflow not found in this project'],
      [{ workflow_id: 'abc' }, ''],
      [{ workflow_id: workflowId, template_id: templateId }, 'Either a template or a workflow is required, not both'],
      [{}, 'Template is required'],
      [{ workflow_id: workflowId, task_params: { variables: { nope: 'x' } } }, 'Unknown workflow variables: nope'],
    ];
    for (const [body, error] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      if (error) expect(response.body, JSON.stringify(body)).toMatchObject({ error });
    }
    expect((await post({ workflow_id: workflowId }, guestCookie)).status).toBe(403);
  });

  it('a webhook call whose run is refused starts nothing and says why in the activity', async () => {
    // No version: the required variable is missing when the call comes.
    const created = await send('POST', '/integrations', { name: 'Incomplete', workflow_id: workflowId });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: number }).id;
    const aliasUrl = ((await send('POST', `/integrations/${id}/aliases`)).body as { url: string }).url;
    const before = (await runsOf()).length;
    const hooked = await t.request('POST', aliasUrl.slice(aliasUrl.indexOf('/api/')), { rawBody: '{}' });
    expect(hooked.status).toBe(204);
    expect(hooked.headers['x-gantry-workflow-run-id']).toBeUndefined();
    expect(await runsOf()).toHaveLength(before);
    const events = (await send('GET', '/events/last')).body as { description: string }[];
    expect(events.map((e) => e.description)).toContain(
      'Webhook call for integration Incomplete started nothing: the workflow run could not start: Required workflow variables missing: version',
    );
  });

  it('deleting a workflow deletes its integrations', async () => {
    const created = await send('POST', '/workflows', {
      name: 'Hooked briefly',
      steps: [{ key: 'a', kind: 'template', template_id: templateId }],
    });
    const id = (created.body as { id: number }).id;
    const integration = await send('POST', '/integrations', { name: 'Gone', workflow_id: id });
    expect(integration.status, integration.text).toBe(201);
    expect((await send('DELETE', `/workflows/${id}`)).status).toBe(204);
    expect((await send('GET', `/integrations/${(integration.body as { id: number }).id}`)).status).toBe(404);
  });
});
