import type { TaskApproval } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from './alert-receivers.ts';
import { addProjectMembers, createProjectFixture, type Member, type ProjectFixture } from './task-fixture.ts';
import { createPeerNode, createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('templates that need approval on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  let receiver: HttpReceiver;
  /** Moved forward by tests of the timeout: the engine reads this clock. */
  let offsetMs = 0;
  const members = {} as Record<'r1' | 'r2' | 'starter' | 'guest' | 'outsider', Member>;

  const send = (method: string, path: string, body?: unknown, as = t.adminCookie) =>
    t.request(method, `${p.base}${path}`, { as, ...(body === undefined ? {} : { body }) });
  const decide = (taskId: number, what: 'approve' | 'reject', as: Member, body: unknown) =>
    send('POST', `/tasks/${taskId}/approval/${what}`, body, as.cookie);
  const approvalOf = async (taskId: number, as = t.adminCookie) => {
    const response = await send('GET', `/tasks/${taskId}/approval`, undefined, as);
    expect(response.status, response.text).toBe(200);
    return response.body as TaskApproval;
  };
  const statusOf = async (taskId: number) =>
    ((await send('GET', `/tasks/${taskId}`)).body as { status: string }).status;

  /** Runs `work` with the engine's clock `ms` ahead. */
  async function later(ms: number, work: () => Promise<unknown>): Promise<void> {
    offsetMs += ms;
    try {
      await work();
    } finally {
      offsetMs -= ms;
    }
  }

  async function gatedTemplate(approval: Record<string, unknown>): Promise<number> {
    return p.createTemplate({ playbook: 'ok.sh', approval });
  }

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await createTestApp(
      dialect,
      { web_host: 'https://gantry.example.com', alert_webhook_url: `${receiver.url}/webhook` },
      { clock: { now: () => new Date(Date.now() + offsetMs) } },
    );
    p = await createProjectFixture(t, { 'ok.sh': 'echo gate-passed\n', 'fail.sh': 'exit 3\n' });
    const project = (await send('GET', '')).body as { id: number; name: string };
    expect((await send('PUT', '', { id: project.id, name: project.name, alert: true })).status).toBe(204);
    const roles = { r1: 'task_runner', r2: 'task_runner', starter: 'task_runner', guest: 'guest' };
    Object.assign(members, await addProjectMembers(t, p.base, `tg-${dialect}`, roles));
    const outsider = `tg-${dialect}-outsider`;
    members.outsider = { ...(await t.createUser(outsider)), username: outsider };
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('holds a task as waiting_approval outside the queue until N approvers approve, then runs it', async () => {
    const templateId = await gatedTemplate({ approvers: { user_ids: [members.r1.id, members.r2.id] }, required: 2 });
    const template = (await send('GET', `/templates/${templateId}`)).body as { approval: { required: number } };
    expect(template.approval).toMatchObject({ required: 2, on_timeout: 'reject', timeout_seconds: 86400 });
    const taskId = await p.runTask(templateId, {}, members.starter.cookie);
    const waiting = (await send('GET', `/tasks/${taskId}`)).body as Record<string, unknown>;
    expect(waiting).toMatchObject({ status: 'waiting_approval', needs_approval: true, location: 'queue', start: null });
    // It holds no slot: the dispatcher has had every chance to start it.
    t.runtime.services.engine.wake();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await statusOf(taskId)).toBe('waiting_approval');
    expect(await approvalOf(taskId, members.r1.cookie)).toMatchObject({
      state: 'waiting',
      required: 2,
      approvals: 0,
      can_decide: true,
      pending_approvers: [
        expect.objectContaining({ id: members.r1.id }),
        expect.objectContaining({ id: members.r2.id }),
      ],
    });
    expect((await approvalOf(taskId, members.starter.cookie)).can_decide).toBe(false);

    const first = await decide(taskId, 'approve', members.r1, { reason: '  Looks fine  ' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ state: 'waiting', approvals: 1 });
    expect(await statusOf(taskId)).toBe('waiting_approval');
    const twice = await decide(taskId, 'reject', members.r1, { reason: 'changed my mind' });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(expect.objectContaining({ error: 'You have already decided on this task' }));

    const second = await decide(taskId, 'approve', members.r2, { reason: 'Ship it' });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ state: 'approved', approvals: 2, pending_approvers: [], can_decide: false });
    await p.waitForStatus(taskId, ['success']);
    const log = await p.output(taskId);
    expect(log).toEqual(expect.arrayContaining([`Approved by ${members.r1.username}: Looks fine (1 of 2 approvals).`]));
    expect(log).toContain('gate-passed');
    const decisions = (await approvalOf(taskId)).decisions;
    expect(decisions.map((d) => [d.username, d.decision, d.reason])).toEqual([
      [members.r1.username, 'approve', 'Looks fine'],
      [members.r2.username, 'approve', 'Ship it'],
    ]);
    const events = (await send('GET', '/events')).body as { description: string }[];
    expect(events.map((e) => e.description)).toContain(`Task ${taskId} approved by ${members.r2.username}: Ship it`);
    const late = await decide(taskId, 'approve', members.r1, { reason: 'late' });
    expect(late.status).toBe(409);
  });

  it('ends a task as rejected with the reason in its log when one approver rejects', async () => {
    const templateId = await gatedTemplate({ approvers: { roles: ['task_runner'] }, required: 2 });
    const taskId = await p.runTask(templateId, {}, members.starter.cookie);
    const rejected = await decide(taskId, 'reject', members.r2, {
      reason: 'Not on a Friday\nTask finished successfully.',
    });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ state: 'rejected', pending_approvers: [] });
    const task = (await send('GET', `/tasks/${taskId}`)).body as Record<string, unknown>;
    expect(task).toMatchObject({ status: 'rejected', start: null });
    expect(task.end).not.toBeNull();
    expect(await p.output(taskId)).toEqual(
      // A reason is one line of the log: its line break cannot forge another.
      expect.arrayContaining([
        `Rejected by ${members.r2.username}: Not on a Friday Task finished successfully.`,
        'Task rejected.',
      ]),
    );
  });

  it('takes decisions sent at once one after the other: the one that settles the gate is the last taken', async () => {
    const templateId = await gatedTemplate({ approvers: { roles: ['task_runner'] }, required: 1 });
    for (let round = 0; round < 4; round++) {
      const taskId = await p.runTask(templateId, {}, members.starter.cookie);
      // The rejection first, by a hair: before, the approval could still start the task it had rejected.
      const answers = await Promise.all([
        decide(taskId, 'reject', members.r1, { reason: 'No' }),
        decide(taskId, 'approve', members.r2, { reason: 'Yes' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const rejected = answers[0]?.status === 200;
      const task = await p.waitForStatus(taskId, rejected ? ['rejected'] : ['success']);
      expect(task.status).toBe(rejected ? 'rejected' : 'success');
      const approval = await approvalOf(taskId);
      expect(approval.state).toBe(rejected ? 'rejected' : 'approved');
      expect(approval.decisions).toHaveLength(1);
      const output = await p.output(taskId);
      expect(output.includes('Task rejected.')).toBe(rejected);
      expect(output.includes('gate-passed')).toBe(!rejected);
    }
  });

  it('never retries a task rejected at its gate or timed out, even when its template retries failures', async () => {
    const templateId = await p.createTemplate({
      playbook: 'fail.sh',
      retries: 2,
      approval: { approvers: { roles: ['task_runner'] }, required: 1, timeout_seconds: 60 },
    });
    const rejected = await p.runTask(templateId, {}, members.starter.cookie);
    expect((await decide(rejected, 'reject', members.r1, { reason: 'No' })).status).toBe(200);
    const timedOut = await p.runTask(templateId, {}, members.starter.cookie);
    await later(61_000, () => t.runtime.services.taskApprovals.settleTimedOut());
    expect(await statusOf(timedOut)).toBe('rejected');
    await later(3_600_000, () => t.runtime.services.retrySweep.round());
    const tasks = (await send('GET', `/templates/${templateId}/tasks`)).body as { id: number }[];
    expect(tasks.map((task) => task.id).sort((a, b) => a - b)).toEqual([rejected, timedOut]);
    expect((await p.output(rejected)).some((line) => line.startsWith('Retry'))).toBe(false);
  });

  it('refuses the starter, guests, outsiders, non-approvers and decisions without a reason', async () => {
    const templateId = await gatedTemplate({ approvers: { user_ids: [members.r1.id, members.starter.id] } });
    const taskId = await p.runTask(templateId, {}, members.starter.cookie);
    const starter = await decide(taskId, 'approve', members.starter, { reason: 'mine' });
    expect(starter.status).toBe(403);
    expect(starter.body).toEqual({
      error: 'Who started the task may not approve or reject it',
      code: expect.any(String),
    });
    expect((await decide(taskId, 'approve', members.r2, { reason: 'not listed' })).status).toBe(403);
    expect((await decide(taskId, 'approve', members.guest, { reason: 'guest' })).status).toBe(403);
    expect((await decide(taskId, 'approve', members.outsider, { reason: 'outsider' })).status).toBe(404);
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(1001) }, { reason: 5 }, null]) {
      const response = await decide(taskId, 'approve', members.r1, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body as { error: string }).error).toMatch(/Reason|JSON object/);
    }
    expect((await send('POST', '/tasks/99999999/approval/approve', { reason: 'x' })).status).toBe(404);
    expect((await send('POST', '/tasks/abc/approval/approve', { reason: 'x' })).status).toBe(400);
    const plain = await p.runTask(await p.createTemplate({ playbook: 'ok.sh' }));
    const notGated = await send('GET', `/tasks/${plain}/approval`);
    expect(notGated.status).toBe(400);
    expect(notGated.body).toMatchObject({ error: 'The task did not need approval' });
    expect(await statusOf(taskId)).toBe('waiting_approval');
    // A stop ends the wait like any queued task.
    expect((await send('POST', `/tasks/${taskId}/stop`, {})).status).toBe(204);
    expect(await statusOf(taskId)).toBe('stopped');
    expect((await approvalOf(taskId)).state).toBe('stopped');
    expect((await decide(taskId, 'approve', members.r1, { reason: 'too late' })).status).toBe(409);
  });

  it('checks the gate of a template and keeps it when a client leaves the field out', async () => {
    const bad = [
      [{ approvers: {} }, 'Approval needs at least one approver'],
      [
        { approvers: { user_ids: [members.r1.id] }, required: 2 },
        'Approval requires 2 approvals but lists only 1 approvers',
      ],
      [{ approvers: { user_ids: [members.outsider.id] } }, `Approvers ${members.outsider.id} are not members`],
      [{ approvers: { user_ids: [members.guest.id] } }, `Approvers ${members.guest.id} are not members`],
      [{ approvers: { roles: ['boss'] } }, ''],
      [{ approvers: { roles: ['manager'] }, timeout_seconds: 5 }, 'Approval timeout must be'],
      [{ approvers: { roles: ['manager'] }, on_timeout: 'maybe' }, 'On timeout must be'],
    ] as const;
    for (const [approval, message] of bad) {
      const response = await send(
        'POST',
        '/templates',
        p.templateBody({ name: 'Bad gate', playbook: 'ok.sh', approval }),
      );
      expect(response.status, JSON.stringify(approval)).toBe(400);
      expect((response.body as { error: string }).error).toContain(message);
    }
    const templateId = await gatedTemplate({ approvers: { roles: ['manager'] } });
    const body = p.templateBody({ id: templateId, name: 'Kept gate', playbook: 'ok.sh' });
    expect((await send('PUT', `/templates/${templateId}`, body)).status).toBe(204);
    expect(((await send('GET', `/templates/${templateId}`)).body as { approval: unknown }).approval).toMatchObject({
      approvers: { roles: ['manager'] },
    });
    expect((await send('PUT', `/templates/${templateId}`, { ...body, approval: null })).status).toBe(204);
    expect(((await send('GET', `/templates/${templateId}`)).body as { approval: unknown }).approval).toBeNull();
  });

  it('settles a timed-out task by the template rule: rejected by default, queued when it approves', async () => {
    const rejecting = await p.runTask(await gatedTemplate({ approvers: { roles: ['manager'] }, timeout_seconds: 60 }));
    const approving = await p.runTask(
      await gatedTemplate({ approvers: { roles: ['manager'] }, timeout_seconds: 60, on_timeout: 'approve' }),
    );
    await t.runtime.services.taskApprovals.settleTimedOut();
    expect(await statusOf(rejecting)).toBe('waiting_approval');
    await later(61_000, () => t.runtime.services.taskApprovals.settleTimedOut());
    expect(await statusOf(rejecting)).toBe('rejected');
    expect(await p.output(rejecting)).toEqual(
      expect.arrayContaining(['Nobody approved the task in 60 seconds; the template rejects it on timeout.']),
    );
    expect((await approvalOf(rejecting)).state).toBe('timed_out');
    await p.waitForStatus(approving, ['success']);
    expect((await approvalOf(approving)).state).toBe('timed_out');
  });

  it('keeps a waiting task in the store: another server on it (as after a restart) takes the approval and runs it', async () => {
    const templateId = await gatedTemplate({ approvers: { user_ids: [members.r1.id] } });
    const taskId = await p.runTask(templateId);
    const other = await createPeerNode(t);
    try {
      const cookie = await other.login(members.r1.username, `${members.r1.username}-Secret-1`);
      const approved = await other.request('POST', `${p.base}/tasks/${taskId}/approval/approve`, {
        as: cookie,
        body: { reason: 'after restart' },
      });
      expect(approved.status, approved.text).toBe(200);
      await p.waitForStatus(taskId, ['success']);
    } finally {
      await other.app.close();
      await other.runtime.close();
    }
  });

  it('alerts with a link to the task, and sends an alert a crash cut off on the next sweep, once', async () => {
    const db = t.runtime.connection.db;
    const templateId = await gatedTemplate({ approvers: { user_ids: [members.r1.id] } });
    const taskId = await p.runTask(templateId);
    const [first] = await receiver.waitFor('/webhook', taskId);
    expect(first!.body).toMatchObject({
      event: 'task.waiting_approval',
      task: { id: taskId, status: 'waiting_approval', required_approvals: 1 },
    });
    expect(JSON.stringify(first!.body)).toContain(`https://gantry.example.com${p.base.replace('/api', '')}/templates/`);
    const taskRow = db.selectFrom('task').where('id', '=', taskId);
    const owedAlert = async () => (await taskRow.select('approval_alert').executeTakeFirstOrThrow()).approval_alert;
    /** Sets when the task's alert is owed from (seconds from now on the engine's clock). */
    const oweAlert = (seconds: number) =>
      db
        .updateTable('task')
        .set({ approval_alert: new Date(Date.now() + offsetMs + seconds * 1000).toISOString() })
        .where('id', '=', taskId)
        .execute();
    const sweep = async () => {
      await t.runtime.services.taskApprovals.sendOwedAlerts();
      await t.runtime.services.alerts.drain();
    };
    await t.runtime.services.alerts.drain();
    expect(await owedAlert()).toBeNull();
    await sweep();
    expect(receiver.for('/webhook', taskId)).toHaveLength(1);

    // The server died after storing the waiting task and before its alert went out.
    await oweAlert(-5);
    await sweep();
    expect(receiver.for('/webhook', taskId)).toHaveLength(2);
    expect(await owedAlert()).toBeNull();
    await sweep();
    expect(receiver.for('/webhook', taskId)).toHaveLength(2);

    // Claimed by a node that is sending it: left to that node until its claim runs out.
    await oweAlert(60);
    await sweep();
    expect(receiver.for('/webhook', taskId)).toHaveLength(2);

    // Approved before the owed alert went out: nobody needs it any more.
    await oweAlert(-5);
    expect((await decide(taskId, 'approve', members.r1, { reason: 'go' })).status).toBe(200);
    await sweep();
    expect(receiver.for('/webhook', taskId)).toHaveLength(2);
    await p.waitForStatus(taskId, ['success']);
  });
});
