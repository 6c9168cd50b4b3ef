import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectMembers, useProjectFixture, type Member } from './task-fixture.ts';
import { createWorkflowCalls } from './workflow-run-fixture.ts';
import { useTestApp, type TestResponse } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const FINAL = ['success', 'error', 'stopped'];

describe.each(dialects)('task requests repeated with a key on %s', (dialect) => {
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, { 'job.sh': 'echo job\n' });
  let templateId = 0;
  let otherTemplateId = 0;
  let members: Record<'alice' | 'bob', Member>;

  beforeAll(async () => {
    t.runtime.services.workflowRuns.beginSweep();
    templateId = await p.createTemplate({ name: 'Keyed', playbook: 'job.sh', allow_parallel_tasks: true });
    otherTemplateId = await p.createTemplate({ name: 'Other', playbook: 'job.sh', allow_parallel_tasks: true });
    members = await addProjectMembers(t, p.base, 'keyed', { alice: 'task_runner', bob: 'task_runner' });
  });

  afterAll(async () => {
    // Every task ends before the database goes away.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const tasks = (await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as { status: string }[];
      if (tasks.every((task) => FINAL.includes(task.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  const launch = (as: string, key: string | undefined, template = templateId): Promise<TestResponse> =>
    t.request('POST', `${p.base}/tasks`, {
      as,
      body: { template_id: template },
      headers: key === undefined ? {} : { 'Idempotency-Key': key },
    });
  const taskIdOf = (response: TestResponse) => {
    expect(response.status, response.text).toBe(201);
    return (response.body as { id: number }).id;
  };
  const workflows = createWorkflowCalls(t, () => p.base);
  const countTasks = async () =>
    ((await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as unknown[]).length;

  it('answers a repeated request with the task the first one made, and makes no second', async () => {
    const before = await countTasks();
    const first = taskIdOf(await launch(members.alice.cookie, 'deploy-2026-11-29-a'));
    const again = await launch(members.alice.cookie, 'deploy-2026-11-29-a');
    expect(taskIdOf(again)).toBe(first);
    // The draft standard's form: the key as a quoted string.
    expect(taskIdOf(await launch(members.alice.cookie, '"deploy-2026-11-29-a"'))).toBe(first);
    expect(await countTasks()).toBe(before + 1);
    await p.waitForStatus(first, FINAL);
    // After the task ended, the key still names it.
    expect(taskIdOf(await launch(members.alice.cookie, 'deploy-2026-11-29-a'))).toBe(first);
    // Without a key every request is a task of its own.
    const plain = [
      taskIdOf(await launch(members.alice.cookie, undefined)),
      taskIdOf(await launch(members.alice.cookie, undefined)),
    ];
    expect(new Set(plain).size).toBe(2);
    expect(await countTasks()).toBe(before + 3);
  });

  it("keeps each caller's keys apart", async () => {
    const alices = taskIdOf(await launch(members.alice.cookie, 'shared-key'));
    const bobs = taskIdOf(await launch(members.bob.cookie, 'shared-key'));
    expect(bobs).not.toBe(alices);
    expect(taskIdOf(await launch(members.bob.cookie, 'shared-key'))).toBe(bobs);
  });

  it('refuses a key used before for another template, and a malformed key', async () => {
    taskIdOf(await launch(members.alice.cookie, 'template-bound'));
    const other = await launch(members.alice.cookie, 'template-bound', otherTemplateId);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: 'This Idempotency-Key was already used for a task of another template' });
    const before = await countTasks();
    for (const key of ['', '   ', '""', 'x'.repeat(256), 'naïve', 'tab\there']) {
      const response = await launch(members.alice.cookie, key);
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(response.body).toMatchObject({ error: 'Idempotency-Key must be 1 to 255 printable ASCII characters' });
    }
    expect(taskIdOf(await launch(members.alice.cookie, 'x'.repeat(255)))).toBeGreaterThan(0);
    expect(await countTasks()).toBe(before + 1);
  });

  it('makes one task of simultaneous requests with one key', async () => {
    const before = await countTasks();
    const answers = await Promise.all(Array.from({ length: 6 }, () => launch(members.alice.cookie, 'burst-key')));
    const ids = new Set(answers.map(taskIdOf));
    expect(ids.size).toBe(1);
    expect(await countTasks()).toBe(before + 1);
  });

  /** The path of a new integration's webhook, starting the template or the workflow. */
  async function createWebhook(name: string, target: { template_id: number } | { workflow_id: number }) {
    const integration = await t.request('POST', `${p.base}/integrations`, {
      as: t.adminCookie,
      body: { name, ...target },
    });
    expect(integration.status, integration.text).toBe(201);
    const alias = await t.request('POST', `${p.base}/integrations/${(integration.body as { id: number }).id}/aliases`, {
      as: t.adminCookie,
    });
    const url = (alias.body as { url: string }).url;
    return `/api/integrations/${url.slice(url.lastIndexOf('/') + 1)}`;
  }

  it('makes one task of a webhook delivery sent again, by its delivery id', async () => {
    const webhook = await createWebhook('Redelivered', { template_id: templateId });
    const hook = (headers: Record<string, string>) => t.request('POST', webhook, { rawBody: '{}', headers });
    const started = async (headers: Record<string, string>) => {
      const response = await hook(headers);
      expect(response.status, response.text).toBe(204);
      return Number(response.headers['x-gantry-task-id']);
    };
    const before = await countTasks();
    const github = await started({ 'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' });
    expect(await started({ 'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' })).toBe(github);
    const gitlab = await started({ 'Idempotency-Key': 'f1b8c6a2-gitlab' });
    expect(await started({ 'Idempotency-Key': 'f1b8c6a2-gitlab' })).toBe(gitlab);
    expect(gitlab).not.toBe(github);
    // A call without a delivery id, or with one no sender would send, starts a task each time.
    const unnamed = [await started({}), await started({}), await started({ 'X-Gitea-Delivery': 'y'.repeat(300) })];
    expect(new Set(unnamed).size).toBe(3);
    expect(await countTasks()).toBe(before + 5);
  });

  it('starts one workflow run for a repeated request or a redelivered webhook', async () => {
    const step = { key: 'only', kind: 'template', template_id: templateId };
    const workflowId = await workflows.createWorkflow([step]);
    const otherWorkflowId = await workflows.createWorkflow([step]);
    const runsUrl = (id: number) => `${p.base}/workflows/${id}/runs`;
    const start = (id: number, key: string) =>
      t.request('POST', runsUrl(id), { as: t.adminCookie, body: {}, headers: { 'Idempotency-Key': key } });
    const countRuns = async () =>
      ((await t.request('GET', runsUrl(workflowId), { as: t.adminCookie })).body as unknown[]).length;

    const first = await start(workflowId, 'release-7');
    expect(first.status, first.text).toBe(201);
    const again = await start(workflowId, 'release-7');
    expect(again.status, again.text).toBe(201);
    expect((again.body as { id: number }).id).toBe((first.body as { id: number }).id);
    const elsewhere = await start(otherWorkflowId, 'release-7');
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toMatchObject({
      error: 'This Idempotency-Key was already used for a run of another workflow',
    });
    expect((await start(workflowId, 'x'.repeat(256))).status).toBe(400);
    expect(await countRuns()).toBe(1);

    const webhook = await createWebhook('Runs a workflow', { workflow_id: workflowId });
    const runOf = async (headers: Record<string, string>) => {
      const response = await t.request('POST', webhook, { rawBody: '{}', headers });
      expect(response.status, response.text).toBe(204);
      return Number(response.headers['x-gantry-workflow-run-id']);
    };
    const delivered = await runOf({ 'X-GitHub-Delivery': '0b9c1d2e-run' });
    expect(await runOf({ 'X-GitHub-Delivery': '0b9c1d2e-run' })).toBe(delivered);
    expect(await runOf({})).not.toBe(delivered);
    expect(await countRuns()).toBe(3);
    for (const id of [delivered, (first.body as { id: number }).id]) await workflows.waitForRun(workflowId, id);
  });
});
