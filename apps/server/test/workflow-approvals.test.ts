import type { WorkflowRunDetail } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from './alert-receivers.ts';
import { addProjectMembers, type Member } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';
import type { Edge, Step } from './workflow-run-fixture.ts';

const dialects = await listTestDialects();

const WEB_HOST = 'https://gantry.example.com';

describe.each(dialects)('workflow approvals on %s', (dialect) => {
  let t: TestApp;
  let receiver: HttpReceiver;
  /** Moved forward by tests of the timeout: the engine reads this clock. */
  let offsetMs = 0;
  let base = '';
  let otherBase = '';
  const members = {} as Record<'manager' | 'r1' | 'r2' | 'r3' | 'guest' | 'outsider', Member>;

  const send = (method: string, path: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${base}${path}`, { as, ...(body === undefined ? {} : { body }) });

  /** A wait long enough never to end during a test: it shows that an edge fired. */
  const follower = (key: string): Step => ({ key, kind: 'wait', seconds: 3600 });
  const gate = (approval: Record<string, unknown>): Step => ({ key: 'gate', kind: 'approval', ...approval });
  const edges: Edge[] = [
    { from: 'gate', to: 'go', on: 'success' },
    { from: 'gate', to: 'cleanup', on: 'failure' },
  ];

  let workflowCount = 0;
  async function createWorkflow(approval: Record<string, unknown>, projectBase = base): Promise<number> {
    const created = await t.request('POST', `${projectBase}/workflows`, {
      as: t.adminCookie,
      body: { name: `Gate ${++workflowCount}`, steps: [gate(approval), follower('go'), follower('cleanup')], edges },
    });
    expect(created.status, created.text).toBe(201);
    return (created.body as { id: number }).id;
  }

  async function startRun(workflowId: number, as = t.adminCookie): Promise<WorkflowRunDetail> {
    const started = await send('POST', `/workflows/${workflowId}/runs`, {}, as);
    expect(started.status, started.text).toBe(201);
    return started.body as WorkflowRunDetail;
  }

  async function getRun(workflowId: number, runId: number, as = t.adminCookie): Promise<WorkflowRunDetail> {
    const response = await send('GET', `/workflows/${workflowId}/runs/${runId}`, undefined, as);
    expect(response.status, response.text).toBe(200);
    return response.body as WorkflowRunDetail;
  }

  const decide = (workflowId: number, runId: number, what: 'approve' | 'reject', as: Member, body: unknown) =>
    send('POST', `/workflows/${workflowId}/runs/${runId}/steps/gate/${what}`, body, as.cookie);

  const stepOf = (run: WorkflowRunDetail, key: string) => run.steps.find((s) => s.key === key)!;
  const statuses = (run: WorkflowRunDetail) => Object.fromEntries(run.steps.map((s) => [s.key, s.status]));
  const pendingNames = (run: WorkflowRunDetail) =>
    stepOf(run, 'gate').approval!.pending_approvers.map((a) => a.username);

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await createTestApp(
      dialect,
      { web_host: `${WEB_HOST}/`, alert_webhook_url: `${receiver.url}/webhook` },
      { clock: { now: () => new Date(Date.now() + offsetMs) } },
    );
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Approvals' } });
    const projectId = (project.body as { id: number }).id;
    base = `/api/project/${projectId}`;
    const alertsOn = await send('PUT', '', { id: projectId, name: 'Approvals', alert: true });
    expect(alertsOn.status, alertsOn.text).toBe(204);
    const other = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Elsewhere' } });
    otherBase = `/api/project/${(other.body as { id: number }).id}`;
    const roles = { manager: 'manager', r1: 'task_runner', r2: 'task_runner', r3: 'task_runner', guest: 'guest' };
    Object.assign(members, await addProjectMembers(t, base, `appr-${dialect}`, roles));
    members.outsider = { ...(await t.createUser(`appr-${dialect}-outsider`)), username: `appr-${dialect}-outsider` };
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('needs N of M approvals, each approver deciding once, then fires the success edge', async () => {
    const id = await createWorkflow({
      approvers: { user_ids: [members.r1.id, members.r2.id, members.r3.id] },
      required: 2,
    });
    const started = await startRun(id);
    expect(statuses(started)).toEqual({ gate: 'waiting_approval', go: 'pending', cleanup: 'pending' });
    expect(stepOf(started, 'gate').approval).toEqual({
      required: 2,
      approvals: 0,
      decisions: [],
      pending_approvers: [members.r1, members.r2, members.r3].map((m) =>
        expect.objectContaining({ id: m.id, username: m.username }),
      ),
      can_decide: false,
    });
    expect(stepOf(started, 'go').approval).toBeNull();
    expect(stepOf(await getRun(id, started.id, members.r1.cookie), 'gate').approval!.can_decide).toBe(true);

    const first = await decide(id, started.id, 'approve', members.r1, { reason: '  Looks good  ' });
    expect(first.status, first.text).toBe(200);
    let run = first.body as WorkflowRunDetail;
    expect(stepOf(run, 'gate')).toMatchObject({ status: 'waiting_approval', message: '1 of 2 approvals' });
    expect(stepOf(run, 'gate').approval).toMatchObject({
      approvals: 1,
      decisions: [{ user_id: members.r1.id, username: members.r1.username, decision: 'approve', reason: 'Looks good' }],
      can_decide: false,
    });
    expect(pendingNames(run)).toEqual([members.r2.username, members.r3.username]);

    const twice = await decide(id, started.id, 'approve', members.r1, { reason: 'again' });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(expect.objectContaining({ error: 'You have already decided on this step' }));
    const changedMind = await decide(id, started.id, 'reject', members.r1, { reason: 'no' });
    expect(changedMind.status).toBe(409);

    const second = await decide(id, started.id, 'approve', members.r2, { reason: 'Ship it' });
    expect(second.status, second.text).toBe(200);
    run = second.body as WorkflowRunDetail;
    expect(statuses(run)).toEqual({ gate: 'success', go: 'running', cleanup: 'skipped' });
    expect(stepOf(run, 'gate').approval).toMatchObject({ approvals: 2, pending_approvers: [], can_decide: false });
    expect(stepOf(run, 'gate').approval!.decisions.map((d) => d.reason)).toEqual(['Looks good', 'Ship it']);

    const late = await decide(id, started.id, 'approve', members.r3, { reason: 'late' });
    expect(late.status).toBe(409);
    expect(late.body).toEqual(expect.objectContaining({ error: 'Step "gate" is not waiting for approval' }));

    const events = await send('GET', '/events');
    const descriptions = (events.body as { description: string }[]).map((e) => e.description);
    expect(descriptions).toContain(`Workflow run ${started.id}, step gate approved by ${members.r2.username}: Ship it`);
    expect(descriptions).toContain(
      `Workflow run ${started.id}, step gate approved by ${members.r1.username}: Looks good`,
    );
  });

  it('fails the step on one rejection and fires the failure edge', async () => {
    const id = await createWorkflow({ approvers: { user_ids: [members.r1.id, members.r2.id] }, required: 2 });
    const started = await startRun(id);
    expect((await decide(id, started.id, 'approve', members.r1, { reason: 'fine by me' })).status).toBe(200);
    const rejected = await decide(id, started.id, 'reject', members.r2, { reason: 'Change freeze' });
    expect(rejected.status, rejected.text).toBe(200);
    const run = rejected.body as WorkflowRunDetail;
    expect(statuses(run)).toEqual({ gate: 'failed', go: 'skipped', cleanup: 'running' });
    expect(stepOf(run, 'gate').message).toBe(`Rejected by ${members.r2.username}`);
    expect(stepOf(run, 'gate').approval!.decisions).toEqual([
      expect.objectContaining({ username: members.r1.username, decision: 'approve', reason: 'fine by me' }),
      expect.objectContaining({ username: members.r2.username, decision: 'reject', reason: 'Change freeze' }),
    ]);
    const events = (await send('GET', '/events')).body as { description: string }[];
    expect(events.map((e) => e.description)).toContain(
      `Workflow run ${started.id}, step gate rejected by ${members.r2.username}: Change freeze`,
    );
  });

  it('refuses the starter unless the step allows it', async () => {
    const refused = await createWorkflow({ approvers: { user_ids: [members.r1.id, members.r2.id] } });
    const run = await startRun(refused, members.r1.cookie);
    expect(pendingNames(run)).toEqual([members.r2.username]);
    for (const what of ['approve', 'reject'] as const) {
      const own = await decide(refused, run.id, what, members.r1, { reason: 'mine' });
      expect(own.status).toBe(403);
      expect(own.body).toEqual(expect.objectContaining({ error: 'Who started the run may not approve or reject it' }));
    }

    const allowed = await createWorkflow({ approvers: { user_ids: [members.r1.id] }, starter_may_approve: true });
    const own = await startRun(allowed, members.r1.cookie);
    expect(pendingNames(own)).toEqual([members.r1.username]);
    const approved = await decide(allowed, own.id, 'approve', members.r1, { reason: 'mine, allowed' });
    expect(approved.status, approved.text).toBe(200);
    expect(stepOf(approved.body as WorkflowRunDetail, 'gate').status).toBe('success');
  });

  it('takes approvers by project role, never guests', async () => {
    const id = await createWorkflow({ approvers: { roles: ['manager', 'guest'] } });
    const run = await startRun(id);
    // The admin created the project and holds the owner role, not a listed one.
    expect(pendingNames(run)).toEqual([members.manager.username]);
    const runner = await decide(id, run.id, 'approve', members.r1, { reason: 'not mine' });
    expect(runner.status).toBe(403);
    expect(runner.body).toEqual(expect.objectContaining({ error: 'You are not an approver of this step' }));
    expect((await decide(id, run.id, 'approve', members.guest, { reason: 'read only' })).status).toBe(403);
    const manager = await decide(id, run.id, 'approve', members.manager, { reason: 'As manager' });
    expect(manager.status, manager.text).toBe(200);
    expect(statuses(manager.body as WorkflowRunDetail)).toMatchObject({ gate: 'success', go: 'running' });
  });

  it('requires a reason of bounded length and answers clearly for bad steps, ids and projects', async () => {
    const id = await createWorkflow({ approvers: { user_ids: [members.r1.id] } });
    const run = await startRun(id);
    for (const body of [undefined, null]) {
      const response = await decide(id, run.id, 'approve', members.r1, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual(expect.objectContaining({ error: 'Request body must be a JSON object' }));
    }
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 3 }, { reason: 'x'.repeat(1001) }]) {
      const response = await decide(id, run.id, 'approve', members.r1, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as { error: string }).error).toMatch(
        /^Reason (is required|must be at most 1000 characters)/,
      );
    }
    const path = `/workflows/${id}/runs/${run.id}/steps`;
    expect((await send('POST', `${path}/nope/approve`, { reason: 'r' }, members.r1.cookie)).status).toBe(404);
    const wait = await send('POST', `${path}/go/approve`, { reason: 'r' }, members.r1.cookie);
    expect(wait.status).toBe(400);
    expect(wait.body).toEqual(expect.objectContaining({ error: 'Step "go" is not an approval step' }));
    expect((await send('POST', `${path}/a%20b/approve`, { reason: 'r' }, members.r1.cookie)).status).toBe(400);
    for (const bad of ['-1', 'abc', '99999999999999999999'])
      expect((await send('POST', `/workflows/${id}/runs/${bad}/steps/gate/approve`, { reason: 'r' })).status).toBe(400);
    expect((await send('POST', `/workflows/${id}/runs/2147483647/steps/gate/approve`, { reason: 'r' })).status).toBe(
      404,
    );
    // A non-member does not see the project; a guest may not decide; nor may a member who is no approver.
    expect((await decide(id, run.id, 'approve', members.outsider, { reason: 'r' })).status).toBe(404);
    expect((await decide(id, run.id, 'reject', members.guest, { reason: 'r' })).status).toBe(403);
    expect((await decide(id, run.id, 'reject', members.r2, { reason: 'r' })).status).toBe(403);

    // Another project's run, reached through this project, is not found.
    const otherId = await createWorkflow({ approvers: { roles: ['owner'] } }, otherBase);
    const otherRun = await t.request('POST', `${otherBase}/workflows/${otherId}/runs`, { as: t.adminCookie, body: {} });
    expect(otherRun.status, otherRun.text).toBe(201);
    const otherRunId = (otherRun.body as { id: number }).id;
    expect((await send('POST', `/workflows/${id}/runs/${otherRunId}/steps/gate/approve`, { reason: 'r' })).status).toBe(
      404,
    );
    expect(
      (await send('POST', `/workflows/${otherId}/runs/${otherRunId}/steps/gate/approve`, { reason: 'r' })).status,
    ).toBe(404);
    expect(stepOf(await getRun(id, run.id), 'gate').approval!.decisions).toEqual([]);
  });

  it('lets exactly one of two simultaneous decisions end the step', async () => {
    // One approval needed, two approvers at once: one decision ends the step, the other finds it ended.
    const single = await createWorkflow({ approvers: { user_ids: [members.r1.id, members.r2.id] }, required: 1 });
    const one = await startRun(single);
    const answers = await Promise.all([
      decide(single, one.id, 'approve', members.r1, { reason: 'first' }),
      decide(single, one.id, 'approve', members.r2, { reason: 'second' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const after = await getRun(single, one.id);
    expect(statuses(after)).toEqual({ gate: 'success', go: 'running', cleanup: 'skipped' });
    expect(stepOf(after, 'gate').approval!.decisions).toHaveLength(1);

    // Two needed, both at once: each counts the other, so the step ends (once) and does not wait for its timeout.
    const double = await createWorkflow({ approvers: { user_ids: [members.r1.id, members.r2.id] }, required: 2 });
    const two = await startRun(double);
    const both = await Promise.all([
      decide(double, two.id, 'approve', members.r1, { reason: 'one' }),
      decide(double, two.id, 'approve', members.r2, { reason: 'two' }),
    ]);
    expect(both.map((a) => a.status)).toEqual([200, 200]);
    const ended = await getRun(double, two.id);
    expect(statuses(ended)).toEqual({ gate: 'success', go: 'running', cleanup: 'skipped' });
    expect(stepOf(ended, 'gate').approval!.approvals).toBe(2);
    const { db } = t.runtime.connection;
    const approvedEvents = await db
      .selectFrom('event')
      .select('description')
      .where('description', 'like', `Workflow run ${two.id}, step gate approved%`)
      .execute();
    expect(approvedEvents).toHaveLength(2);
  });

  it('lets the timeout decide when approvers do not, rejecting by default', async () => {
    const rejecting = await createWorkflow({ approvers: { user_ids: [members.r1.id] }, timeout_seconds: 60 });
    const approving = await createWorkflow({
      approvers: { user_ids: [members.r1.id] },
      timeout_seconds: 60,
      on_timeout: 'approve',
    });
    const runs = [await startRun(rejecting), await startRun(approving)];
    offsetMs += 61_000;
    for (const run of runs) await t.runtime.services.workflowRuns.advance(run.id);
    const [rejected, approved] = [await getRun(rejecting, runs[0]!.id), await getRun(approving, runs[1]!.id)];
    expect(statuses(rejected)).toEqual({ gate: 'failed', go: 'skipped', cleanup: 'running' });
    expect(stepOf(rejected, 'gate')).toMatchObject({ message: 'Approval timed out' });
    expect(stepOf(rejected, 'gate').approval!.pending_approvers).toEqual([]);
    expect(statuses(approved)).toEqual({ gate: 'success', go: 'running', cleanup: 'skipped' });
    const late = await decide(rejecting, runs[0]!.id, 'approve', members.r1, { reason: 'too late' });
    expect(late.status).toBe(409);
  });

  it('alerts the project channels with a link to the run when an approval step starts waiting', async () => {
    const id = await createWorkflow({ approvers: { user_ids: [members.r1.id] }, required: 1 });
    const run = await startRun(id, members.r2.cookie);
    const [received] = await receiver.waitFor('/webhook', run.id);
    expect(received!.body).toMatchObject({
      event: 'workflow.waiting_approval',
      template: null,
      task: null,
      workflow_run: {
        id: run.id,
        workflow: { id, name: expect.stringMatching(/^Gate /) },
        step: { key: 'gate', name: 'gate' },
        status: 'waiting_approval',
        required_approvals: 1,
        started_by: `User ${members.r2.username}`,
        url: `${WEB_HOST}${base.replace('/api', '')}/workflows/${id}/runs/${run.id}`,
      },
    });
    expect(received!.body.text).toContain(`${WEB_HOST}${base.replace('/api', '')}/workflows/${id}/runs/${run.id}`);

    // A project whose alerts are off is not alerted.
    const quiet = await createWorkflow({ approvers: { roles: ['owner'] } }, otherBase);
    const quietRun = await t.request('POST', `${otherBase}/workflows/${quiet}/runs`, { as: t.adminCookie, body: {} });
    expect(quietRun.status).toBe(201);
    await t.runtime.services.alerts.drain();
    const quietUrl = `${otherBase.replace('/api', '')}/workflows/${quiet}/runs/`;
    expect(receiver.requests.filter((r) => JSON.stringify(r.body).includes(quietUrl))).toEqual([]);
  });

  it('sends an approval alert a crash cut off on the next sweep, once, and never for a step that stopped waiting', async () => {
    const db = t.runtime.connection.db;
    const alertsOf = (runId: number) =>
      receiver.requests.filter((r) => r.path === '/webhook' && JSON.stringify(r.body).includes(`/runs/${runId}"`));
    const id = await createWorkflow({ approvers: { user_ids: [members.r1.id] }, required: 1 });
    const run = await startRun(id);
    await receiver.waitFor('/webhook', run.id);
    const gateRow = db.selectFrom('workflow_step_run').where('run_id', '=', run.id).where('step_key', '=', 'gate');
    const owedAlert = async () => (await gateRow.select('approval_alert').executeTakeFirstOrThrow()).approval_alert;
    /** Sets when the gate's alert is owed from (seconds from now on the engine's clock). */
    const oweAlert = async (seconds: number) => {
      const { id: stepRunId } = await gateRow.select('id').executeTakeFirstOrThrow();
      const owed = new Date(Date.now() + offsetMs + seconds * 1000).toISOString();
      await db.updateTable('workflow_step_run').set({ approval_alert: owed }).where('id', '=', stepRunId).execute();
    };
    const sweep = async () => {
      await t.runtime.services.workflowRuns.advance(run.id);
      await t.runtime.services.alerts.drain();
    };
    // Sent: nothing is owed any more, and a sweep sends nothing.
    await t.runtime.services.alerts.drain();
    expect(await owedAlert()).toBeNull();
    await sweep();
    expect(alertsOf(run.id)).toHaveLength(1);

    // The server died after the step began to wait and before its alert went out: the alert is still owed.
    await oweAlert(-5);
    await sweep();
    expect(alertsOf(run.id)).toHaveLength(2);
    expect(alertsOf(run.id)[1]!.body).toMatchObject({
      event: 'workflow.waiting_approval',
      workflow_run: { id: run.id },
    });
    expect(await owedAlert()).toBeNull();
    await sweep();
    expect(alertsOf(run.id)).toHaveLength(2);

    // A node is sending it (its claim runs into the future): the sweep leaves it to that node.
    await oweAlert(60);
    await sweep();
    expect(alertsOf(run.id)).toHaveLength(2);

    // Decided before the owed alert went out: nobody needs it any more.
    await oweAlert(-5);
    expect((await decide(id, run.id, 'approve', members.r1, { reason: 'ok' })).status).toBe(200);
    await sweep();
    expect(alertsOf(run.id)).toHaveLength(2);
  });
});
