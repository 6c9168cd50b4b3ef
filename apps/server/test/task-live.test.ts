import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectLive } from './live-client.ts';
import { insertTaskRow, useProjectFixture } from './task-fixture.ts';
import { listen, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/**
 * A stand-in for terraform that records its argv and behaves like terraform's exit codes:
 * `plan -detailed-exitcode` says "changes" (2) unless NO_CHANGES is set.
 */
function createFakeTerraform(): { path: string; calls: () => string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fake-tf-'));
  const log = path.join(dir, 'calls.log');
  const file = path.join(dir, 'terraform');
  writeFileSync(
    file,
    `#!/bin/bash\necho "$*" >> '${log}'\necho "fake terraform $1"\nif [ "$1" = plan ]; then\n  if [ -n "$NO_CHANGES" ]; then exit 0; fi\n  exit 2\nfi\nexit 0\n`,
  );
  chmodSync(file, 0o755);
  return { path: file, calls: () => readFileSync(log, 'utf8').trim().split('\n') };
}

describe.each(dialects)('live updates, confirmation and recovery on %s', (dialect) => {
  let url = '';

  const t = useTestApp(dialect);
  const p = useProjectFixture(t, {
    'count.sh': 'for i in $(seq 1 300); do echo "n$i"; done\n',
    'infra/main.tf': '',
  });
  beforeAll(async () => {
    url = await listen(t.app);
  });

  const connect = (query: string) => connectLive(url, { cookie: t.adminCookie }, query);

  it('websocket clients get status updates and every log line in order, per line or in batches', async () => {
    const perLine = await connect('');
    const batched = await connect('?batch=1');
    const templateId = await p.createTemplate({ playbook: 'count.sh' });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['success']);
    await expect.poll(() => perLine.messages.some((m) => m.type === 'update' && m.status === 'success')).toBe(true);
    await expect.poll(() => batched.messages.some((m) => m.type === 'update' && m.status === 'success')).toBe(true);

    const updates = perLine.messages.filter((m) => m.type === 'update' && m.task_id === taskId).map((m) => m.status);
    expect(updates).toEqual(['starting', 'running', 'success']);
    const lines = perLine.messages.filter((m) => m.type === 'log' && m.task_id === taskId).map((m) => String(m.output));
    expect(lines.filter((l) => /^n\d+$/.test(l))).toEqual(Array.from({ length: 300 }, (_, i) => `n${i + 1}`));
    const batches = batched.messages.filter((m) => m.type === 'logs' && m.task_id === taskId) as {
      lines: { seq: number; output: string }[];
    }[];
    const seqs = batches.flatMap((b) => b.lines.map((l) => l.seq));
    expect(seqs).toEqual(seqs.map((_, i) => i));
    expect(batches.length).toBeLessThan(seqs.length);
    perLine.socket.close();
    batched.socket.close();
  });

  it('a websocket without a session is refused, and non-members receive nothing', async () => {
    await expect(connectLive(url)).rejects.toThrow('handshake answered 401');
    const outsider = await t.createUser(`outsider${Math.random().toString(36).slice(2, 6)}`);
    const { socket, messages } = await connectLive(url, { cookie: outsider.cookie });
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'count.sh' }));
    await p.waitForStatus(taskId, ['success']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages).toEqual([]);
    socket.close();
  });

  /** A fake terraform as the terraform app, and a terraform template of the repository's infra directory. */
  async function fakeTerraformTemplate(fields: Record<string, unknown> = {}) {
    const fake = createFakeTerraform();
    await t.request('PUT', '/api/apps/terraform', { as: t.adminCookie, body: { path: fake.path } });
    return { fake, templateId: await p.createTemplate({ app: 'terraform', playbook: 'infra', ...fields }) };
  }

  /** Starts a task of the template and waits until its plan waits for confirmation. */
  async function runToConfirmation(templateId: number, body?: Record<string, unknown>): Promise<number> {
    const taskId = await p.runTask(templateId, body);
    await p.waitForStatus(taskId, ['waiting_confirmation']);
    return taskId;
  }

  it('terraform: plan with changes waits for confirmation, then applies the saved plan', async () => {
    const { fake, templateId } = await fakeTerraformTemplate({ inventory_id: null });
    const taskId = await runToConfirmation(templateId, { params: { upgrade: true } });
    expect((await t.request('POST', `${p.base}/tasks/${taskId}/confirm`, { as: t.adminCookie })).status).toBe(204);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('success');
    const calls = fake.calls();
    expect(calls[0]).toBe('init -input=false -upgrade');
    expect(calls[1]).toBe('workspace list');
    expect(calls[2]).toBe('workspace select -or-create=true default');
    expect(calls[3]).toMatch(/^plan -input=false -detailed-exitcode -out=\S+tfplan$/);
    // The saved plan is read for its summary (docs/task-log.md), then applied.
    expect(calls[4]).toMatch(/^show -json \S+tfplan$/);
    expect(calls[5]).toMatch(/^apply -input=false \S+tfplan$/);
    expect(await p.output(taskId)).toContain('Waiting for confirmation to apply the plan.');
  });

  it('terraform: rejecting the plan ends the task as rejected without applying (stats count it as stopped, not failed); auto-approve applies at once', async () => {
    const { fake, templateId } = await fakeTerraformTemplate();
    const rejected = await runToConfirmation(templateId);
    expect((await t.request('POST', `${p.base}/tasks/${rejected}/reject`, { as: t.adminCookie })).status).toBe(204);
    const ended = await p.waitForStatus(rejected, ['success', 'error', 'rejected']);
    expect(ended.status).toBe('rejected');
    expect(ended.end).not.toBeNull();
    expect((await p.output(rejected)).slice(-2)).toEqual(['The plan was rejected.', 'Task rejected.']);
    expect(fake.calls().some((c) => c.startsWith('apply'))).toBe(false);
    expect((await t.request('POST', `${p.base}/tasks/${rejected}/confirm`, { as: t.adminCookie })).status).toBe(409);
    expect((await t.request('POST', `${p.base}/tasks/${rejected}/reject`, { as: t.adminCookie })).status).toBe(409);
    const today = new Date().toISOString().slice(0, 10);
    const stats = (
      await t.request('GET', `${p.base}/templates/${templateId}/stats?start=${today}`, { as: t.adminCookie })
    ).body;
    expect(stats).toEqual([{ date: today, count_by_status: { success: 0, failed: 0, stopped: 1 } }]);

    const approved = await p.runTask(templateId, { params: { auto_approve: true, destroy: true } });
    expect((await p.waitForStatus(approved, ['success', 'error'])).status).toBe('success');
    expect(
      fake
        .calls()
        .filter((c) => c.startsWith('plan'))
        .at(-1),
    ).toMatch(/ -destroy$/);
    // The plan applied, then its outputs read (docs/workflows.md, Outputs).
    expect(fake.calls().slice(-2)).toEqual([expect.stringMatching(/^apply /), 'output -json']);
  });

  it('terraform: a force stop while waiting for confirmation ends the task as stopped', async () => {
    const taskId = await runToConfirmation((await fakeTerraformTemplate()).templateId);
    await t.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: t.adminCookie, body: { force: true } });
    expect((await p.waitForStatus(taskId, ['stopped', 'error', 'success'])).status).toBe('stopped');
  });

  it('start-up recovery closes tasks a dead process left running, with a log line', async () => {
    const templateId = await p.createTemplate({ playbook: 'count.sh' });
    const orphanId = await insertTaskRow(t, { project_id: p.projectId, template_id: templateId, status: 'running' });
    expect(await t.runtime.services.engine.recover()).toBe(1);
    const task = await p.waitForStatus(orphanId, ['error']);
    expect(task.end).toEqual(expect.any(String));
    expect(await p.output(orphanId)).toEqual([
      'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
    ]);
  });
});
