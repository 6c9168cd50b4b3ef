import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodesRepository } from '../src/cluster/nodes.repository.ts';
import { useTwoNodes } from './cluster-fixture.ts';
import { connectLive } from './live-client.ts';
import { expectLongPollHearsForceStop } from './runner-fixture.ts';
import { insertTaskRow } from './task-fixture.ts';
import { listClusterDialects } from './test-databases.ts';

const dialects = await listClusterDialects();

describe.each(dialects)('two Gantry nodes sharing one %s store and Redis', (dialect) => {
  const { a, b, p, urlB } = useTwoNodes(dialect, {
    'count.sh': 'for i in $(seq 1 500); do echo "n$i"; done\n',
    'sleeper.sh': 'echo "going to sleep"; sleep 60 & wait\n',
    'infra/main.tf': '',
  });

  /**
   * Runs count.sh (500 numbered lines) on node A and waits until the socket heard it succeed; what the
   * socket heard of the task: its status updates and its lines.
   */
  async function watchCountTask(messages: Record<string, unknown>[]) {
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'count.sh' }));
    await p.waitForStatus(taskId, ['success']);
    await expect
      .poll(() => messages.some((m) => m.type === 'update' && m.task_id === taskId && m.status === 'success'))
      .toBe(true);
    const lines = messages
      .filter((m) => m.type === 'logs' && m.task_id === taskId)
      .flatMap((m) => m.lines as { seq: number; output: string }[]);
    return { updates: messages.filter((m) => m.type === 'update' && m.task_id === taskId).map((m) => m.status), lines };
  }

  /** Every line of count.sh arrived, once each, numbered without a gap. */
  function expectEveryCountLine(lines: { seq: number; output: string }[]): void {
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
    expect(lines.map((l) => l.output).filter((o) => /^n\d+$/.test(o))).toEqual(
      Array.from({ length: 500 }, (_, i) => `n${i + 1}`),
    );
  }

  /** Runs a terraform template on a stand-in whose plan always has changes; resolves once it waits for confirmation. */
  async function startPlanWaitingForConfirmation(): Promise<number> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-tf-'));
    const terraform = path.join(dir, 'terraform');
    writeFileSync(terraform, '#!/bin/bash\necho "terraform $1"\nif [ "$1" = plan ]; then exit 2; fi\nexit 0\n');
    chmodSync(terraform, 0o755);
    await a.request('PUT', '/api/apps/terraform', { as: a.adminCookie, body: { path: terraform } });
    const taskId = await p.runTask(await p.createTemplate({ app: 'terraform', playbook: 'infra' }));
    await p.waitForStatus(taskId, ['waiting_confirmation'], 20_000);
    return taskId;
  }

  it('a browser connected to one node watches, live and in order, a task that runs on the other', async () => {
    const { socket, messages } = await connectLive(urlB(), { cookie: a.adminCookie }, '?batch=1');

    const { updates, lines } = await watchCountTask(messages);
    expect(updates).toEqual(['starting', 'running', 'success']);
    expectEveryCountLine(lines);
    socket.close();
  });

  it('a node whose Redis messages were lost still delivers every line, read back from the shared store', async () => {
    const { socket, messages } = await connectLive(urlB(), { cookie: a.adminCookie }, '?batch=1');

    // After the first, every other batch of lines published by node A goes missing on its way to
    // node B. (A first batch lost is a client that joined mid-task: it reads the start from the API.)
    const bus = a.runtime.services.clusterBus;
    if (!bus) throw new Error('node A has no cluster bus');
    const publish = bus.publish.bind(bus);
    let dropped = 0;
    let batches = 0;
    bus.publish = (message) => {
      if (message.kind === 'lines' && batches++ % 2 === 1) {
        dropped++;
        return;
      }
      publish(message);
    };
    try {
      const { lines } = await watchCountTask(messages);
      expect(dropped).toBeGreaterThan(0);
      expectEveryCountLine(lines);
    } finally {
      bus.publish = publish;
      socket.close();
    }
  });

  it('a stop sent to one node reaches the task running on the other, which kills its processes', async () => {
    const templateId = await p.createTemplate({ playbook: 'sleeper.sh' });
    const taskId = await p.runTask(templateId);
    await expect.poll(async () => (await p.output(taskId)).includes('going to sleep'), { timeout: 20_000 }).toBe(true);
    expect(a.runtime.services.engine.isRunningHere(taskId)).toBe(true);
    expect((await b.request('POST', `${p.base}/tasks/${taskId}/stop`, { as: a.adminCookie, body: {} })).status).toBe(
      204,
    );
    expect((await p.waitForStatus(taskId, ['stopped', 'error', 'success'], 20_000)).status).toBe('stopped');
    expect((await p.output(taskId)).at(-1)).toBe('Task stopped.');
    // The node lets go of the task once its settling is done, a moment after the status is written.
    await expect.poll(() => a.runtime.services.engine.isRunningHere(taskId), { timeout: 5_000 }).toBe(false);
  });

  it('a plan waiting on one node is confirmed through the other', async () => {
    const taskId = await startPlanWaitingForConfirmation();
    expect((await b.request('POST', `${p.base}/tasks/${taskId}/confirm`, { as: a.adminCookie })).status).toBe(204);
    expect((await p.waitForStatus(taskId, ['success', 'error'], 20_000)).status).toBe('success');
    expect(await p.output(taskId)).toContain('terraform apply');
  });

  it("ignores a control written on the channel by anyone without the nodes' key: unsigned, wrongly signed or tampered", async () => {
    const taskId = await startPlanWaitingForConfirmation();
    const channel = `gantry:${await createNodesRepository(a.runtime.connection.db).getClusterId()}`;
    const { Redis } = await import('ioredis');
    const intruder = new Redis(a.runtime.config.redis_url ?? '');
    try {
      const payload = { kind: 'control', task_id: taskId, action: 'confirm' };
      const body = JSON.stringify({ node: 'intruder', sent: Date.now(), payload });
      const forged = [
        JSON.stringify({ node: 'intruder', payload }),
        JSON.stringify({ body, mac: createHmac('sha256', 'guessed key').update(body).digest('base64') }),
        JSON.stringify({ body, mac: '' }),
      ];
      for (const message of forged) expect(await intruder.publish(channel, message)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await p.waitForStatus(taskId, ['waiting_confirmation'])).status).toBe('waiting_confirmation');
    } finally {
      intruder.disconnect();
    }
    expect((await b.request('POST', `${p.base}/tasks/${taskId}/reject`, { as: a.adminCookie })).status).toBe(204);
    expect((await p.waitForStatus(taskId, ['rejected'], 20_000)).status).toBe('rejected');
  });

  it('a plan waiting on one node is rejected through the other: the task ends as rejected after its last log lines', async () => {
    const taskId = await startPlanWaitingForConfirmation();
    const owner = a.runtime.services.engine.isRunningHere(taskId) ? a : b;
    const other = owner === a ? b : a;
    expect((await other.request('POST', `${p.base}/tasks/${taskId}/reject`, { as: a.adminCookie })).status).toBe(204);
    // Through another node the stored 'rejected' is the request; the node running the task closes it with an end.
    await expect
      .poll(async () => (await p.waitForStatus(taskId, ['rejected'], 20_000)).end, { timeout: 20_000 })
      .not.toBeNull();
    expect((await p.output(taskId)).slice(-2)).toEqual(['The plan was rejected.', 'Task rejected.']);
    expect(await p.output(taskId)).not.toContain('terraform apply');
  });

  it('tasks of a server process that went silent are closed by the others; those of live ones stay', async () => {
    const presenceA = a.runtime.services.presence;
    const presenceB = b.runtime.services.presence;
    if (!presenceA || !presenceB) throw new Error('cluster nodes need their presence');
    await presenceA.beatAndSweep();
    const templateId = await p.createTemplate({ playbook: 'count.sh' });
    const db = a.runtime.connection.db;
    const insert = (nodeId: string) =>
      insertTaskRow(a, { project_id: p.projectId, template_id: templateId, status: 'running', node_id: nodeId });
    const orphan = await insert('a-node-that-died');
    const owned = await insert(a.runtime.services.clusterBus?.nodeId ?? '');
    expect(await presenceB.beatAndSweep()).toBe(1);
    expect((await p.waitForStatus(orphan, ['error'])).status).toBe('error');
    expect(await p.output(orphan)).toContain(
      'The Gantry server running this task stopped answering; the task can no longer be followed and was closed.',
    );
    expect((await a.request('GET', `${p.base}/tasks/${owned}`, { as: a.adminCookie })).body).toMatchObject({
      status: 'running',
    });
    await db.updateTable('task').set({ status: 'error' }).where('id', '=', owned).execute();
  });

  it('two nodes sweeping the same silent node at once close its task once, with one closing line', async () => {
    const templateId = await p.createTemplate({ playbook: 'count.sh' });
    const orphan = await insertTaskRow(a, {
      project_id: p.projectId,
      template_id: templateId,
      status: 'running',
      node_id: 'another-node-that-died',
    });
    const alive = new Set([a.runtime.services.clusterBus?.nodeId ?? '', b.runtime.services.clusterBus?.nodeId ?? '']);
    const closed = await Promise.all([
      a.runtime.services.engine.recover({ aliveNodes: alive }),
      b.runtime.services.engine.recover({ aliveNodes: alive }),
    ]);
    expect(closed[0] + closed[1]).toBe(1);
    expect((await p.waitForStatus(orphan, ['error'])).status).toBe('error');
    const closing = (await p.output(orphan)).filter((line) => line.includes('stopped answering'));
    expect(closing).toHaveLength(1);
  });

  /** A runner of the project that both nodes accept, and its protocol as spoken to one node or the other. */
  async function createClusterRunner(name: string) {
    const created = await a.request('POST', `${p.base}/runners`, { as: a.adminCookie, body: { name } });
    const runner = created.body as { id: number; token: string };
    a.secrets.add(runner.token);
    b.secrets.add(runner.token);
    const headers = { 'x-runner-token': runner.token, 'x-runner-started-at': '2026-01-01T00:00:00.000Z' };
    return {
      id: runner.id,
      poll: (node: typeof a) => node.request('GET', '/api/internal/runners', { headers }),
      report: (node: typeof a, jobs: unknown[]) =>
        node.request('PUT', '/api/internal/runners', { headers, body: { Jobs: jobs } }),
    };
  }

  it("a runner's final report delivered to both nodes at once closes its task once, with one closing line", async () => {
    const runner = await createClusterRunner('twice-reporting runner');
    await runner.poll(a);
    const templateId = await p.createTemplate({ playbook: 'count.sh', allow_parallel_tasks: true });
    const taskIds = [await p.runTask(templateId), await p.runTask(templateId), await p.runTask(templateId)];
    for (const taskId of taskIds) await p.waitForStatus(taskId, ['starting']);
    await runner.poll(b);
    const started = { Status: 'running', LogOffset: 0, LogRecords: [{ time: new Date().toISOString(), message: 'x' }] };
    await runner.report(
      a,
      taskIds.map((ID) => ({ ID, ...started })),
    );
    const finished = taskIds.map((ID) => ({ ID, Status: 'success', LogOffset: 1, LogRecords: [] }));
    await Promise.all([runner.report(a, finished), runner.report(b, finished)]);
    for (const taskId of taskIds) {
      expect((await p.waitForStatus(taskId, ['success'])).status).toBe('success');
      expect((await p.output(taskId)).filter((line) => line === 'Task finished successfully.')).toHaveLength(1);
    }
    await a.request('DELETE', `${p.base}/runners/${runner.id}`, { as: a.adminCookie });
  });

  it('two nodes sweeping the tasks of a deleted runner at once requeue or close each once, with one line', async () => {
    const runner = await createClusterRunner('vanishing runner');
    await runner.poll(a);
    const templateId = await p.createTemplate({ playbook: 'count.sh', allow_parallel_tasks: true });
    const sent = await p.runTask(templateId);
    await p.waitForStatus(sent, ['starting']);
    expect(((await runner.poll(a)).body as { new_jobs: { id: number }[] }).new_jobs.map((job) => job.id)).toEqual([
      sent,
    ]);
    const unsent = await p.runTask(templateId);
    expect(await p.waitForStatus(unsent, ['starting'])).toMatchObject({ runner_id: runner.id });
    // Gone from the store without its node's own release: both sweeps find its tasks at once.
    await a.runtime.connection.db.deleteFrom('runner').where('id', '=', runner.id).execute();
    await Promise.all([a.runtime.services.runnerJobs.sweep(), b.runtime.services.runnerJobs.sweep()]);
    expect((await p.waitForStatus(sent, ['error'])).status).toBe('error');
    const sentLines = await p.output(sent);
    expect(sentLines.filter((line) => line.includes('may have started it'))).toHaveLength(1);
    expect(sentLines.filter((line) => line === 'Task failed.')).toHaveLength(1);
    const unsentLines = await p.output(unsent);
    expect(unsentLines.filter((line) => line.includes('returned to the queue'))).toHaveLength(1);
    await p.waitForStatus(unsent, ['success']);
  });

  it('a runner whose long poll waits on one node hears at once of the stop given on the other', async () => {
    const created = await a.request('POST', `${p.base}/runners`, {
      as: a.adminCookie,
      body: { name: 'cluster runner' },
    });
    const runner = created.body as { id: number; token: string };
    a.secrets.add(runner.token);
    b.secrets.add(runner.token);
    const headers = { 'x-runner-token': runner.token, 'x-runner-started-at': '2026-01-01T00:00:00.000Z' };
    const taskId = await p.runTask(await p.createTemplate({ playbook: 'count.sh' }));
    let job: { id: number } | undefined;
    for (let i = 0; i < 200 && !job; i++) {
      job = ((await b.request('GET', '/api/internal/runners', { headers })).body as { new_jobs: { id: number }[] })
        .new_jobs[0];
      if (!job) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(job?.id).toBe(taskId);
    await b.request('PUT', '/api/internal/runners', {
      headers,
      body: { Jobs: [{ ID: taskId, Status: 'running', LogOffset: 0, LogRecords: [] }] },
    });
    await expectLongPollHearsForceStop(b, a, p.base, runner.token, taskId, 15);
    await b.request('PUT', '/api/internal/runners', {
      headers,
      body: { Jobs: [{ ID: taskId, Status: 'stopped', LogOffset: 0, LogRecords: [] }] },
    });
    expect((await p.waitForStatus(taskId, ['stopped'])).status).toBe('stopped');
    await a.request('DELETE', `${p.base}/runners/${runner.id}`, { as: a.adminCookie });
  });
});
