import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive } from './live-client.ts';
import { readTestEnvironment } from '../src/config.ts';
import { freePort } from './machine.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createPeerNode, createTestApp, listen, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const redisInstalled = spawnSync('redis-server', ['--version']).status === 0;
if (!redisInstalled && readTestEnvironment().ci)
  throw new Error('redis-server is not installed: CI must run the Redis restart tests');
if (!redisInstalled) console.warn('Skipping the Redis restart tests: redis-server is not installed');
// Several nodes need a shared server store: SQLite serves one machine only.
const dialects = redisInstalled ? (await listTestDialects()).filter((dialect) => dialect !== 'sqlite') : [];

/** A Redis of the test's own, which it can stop and start again without disturbing anyone else's. */
function createOwnRedis(port: number) {
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      child = started;
      for (let i = 0; i < 100; i++) {
        if (
          spawnSync('redis-cli', ['-p', String(port), 'ping'])
            .stdout?.toString()
            .trim() === 'PONG'
        )
          return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('redis-server did not start');
    },
    async stop() {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null) return;
      current.kill('SIGKILL');
      await new Promise((resolve) => current.once('exit', resolve));
    },
  };
}

describe.each(dialects)('two Gantry nodes on %s while their Redis goes away and comes back', (dialect) => {
  let redis: ReturnType<typeof createOwnRedis>;
  let a: TestApp;
  let b: TestApp;
  let p: ProjectFixture;
  let urlB = '';

  beforeAll(async () => {
    redis = createOwnRedis(await freePort());
    await redis.start();
    a = await createTestApp(dialect, { redis_url: redis.url });
    await a.runtime.services.clusterBus?.ready;
    await a.runtime.services.presence?.start();
    p = await createProjectFixture(a, {
      'count.sh': 'for i in $(seq 1 200); do echo "n$i"; done\n',
      'sleeper.sh': 'echo "going to sleep"; sleep 60 & wait\n',
      'infra/main.tf': '',
    });
    await redis.stop();
    // B starts while Redis is away: it must come up all the same, and listen once Redis is back.
    b = await createPeerNode(a);
    await b.runtime.services.presence?.start();
    urlB = await listen(b.app);
  });
  afterAll(async () => {
    try {
      await b?.close();
      await a?.close();
    } finally {
      await redis?.stop();
    }
  });

  it('without Redis, tasks queued on either node run, and a stop given on one node reaches the task running on the other', async () => {
    expect((await b.request('GET', '/api/projects', { as: a.adminCookie })).status).toBe(200);
    const sleeper = await p.runTask(await p.createTemplate({ playbook: 'sleeper.sh' }));
    await expect.poll(async () => (await p.output(sleeper)).includes('going to sleep'), { timeout: 20_000 }).toBe(true);
    expect(a.runtime.services.engine.isRunningHere(sleeper)).toBe(true);

    const queuedOnB = await b.request('POST', `${p.base}/tasks`, {
      as: a.adminCookie,
      body: { template_id: await p.createTemplate({ playbook: 'count.sh' }) },
    });
    expect(queuedOnB.status).toBe(201);
    expect((await p.waitForStatus((queuedOnB.body as { id: number }).id, ['success', 'error'], 20_000)).status).toBe(
      'success',
    );

    // The stop message through Redis is lost; node A reads the request from the store at its next beat.
    expect((await b.request('POST', `${p.base}/tasks/${sleeper}/stop`, { as: a.adminCookie, body: {} })).status).toBe(
      204,
    );
    expect((await p.waitForStatus(sleeper, ['stopped', 'error', 'success'], 15_000)).status).toBe('stopped');
    // The final status is stored just before the engine lets go of the task.
    await expect.poll(() => a.runtime.services.engine.isRunningHere(sleeper)).toBe(false);
  }, 60_000);

  it('without Redis, a confirmation and a rejection given on one node reach the plan waiting on the other', async () => {
    const terraform = path.join(mkdtempSync(path.join(os.tmpdir(), 'redis-restart-tf-')), 'terraform');
    writeFileSync(terraform, '#!/bin/bash\necho "terraform $1"\nif [ "$1" = plan ]; then exit 2; fi\nexit 0\n');
    chmodSync(terraform, 0o755);
    await a.request('PUT', '/api/apps/terraform', { as: a.adminCookie, body: { path: terraform } });
    const templateId = await p.createTemplate({ app: 'terraform', playbook: 'infra' });
    for (const answer of ['confirm', 'reject'] as const) {
      const taskId = await p.runTask(templateId);
      await p.waitForStatus(taskId, ['waiting_confirmation'], 20_000);
      const other = a.runtime.services.engine.isRunningHere(taskId) ? b : a;
      // The message through Redis is lost; the node running the task reads the answer from the store at its next beat.
      expect((await other.request('POST', `${p.base}/tasks/${taskId}/${answer}`, { as: a.adminCookie })).status).toBe(
        204,
      );
      if (answer === 'confirm') {
        expect((await p.waitForStatus(taskId, ['success', 'error'], 20_000)).status).toBe('success');
        expect(await p.output(taskId)).toContain('terraform apply');
        continue;
      }
      await expect
        .poll(async () => (await p.waitForStatus(taskId, ['rejected'], 20_000)).end, { timeout: 20_000 })
        .not.toBeNull();
      expect((await p.output(taskId)).slice(-2)).toEqual(['The plan was rejected.', 'Task rejected.']);
      expect(await p.output(taskId)).not.toContain('terraform apply');
    }
  }, 90_000);

  it('once Redis is back, a browser on the node that started without it watches live a task running on the other', async () => {
    await redis.start();
    await b.runtime.services.clusterBus?.ready;
    const { socket, messages } = await connectLive(urlB, { cookie: a.adminCookie }, '?batch=1');
    try {
      const templateId = await p.createTemplate({ playbook: 'count.sh' });
      // Node A's publisher reconnects on its own schedule (ioredis backs off up to 2 s).
      await expect
        .poll(
          async () => {
            const taskId = await p.runTask(templateId);
            await p.waitForStatus(taskId, ['success']);
            await new Promise((resolve) => setTimeout(resolve, 200));
            const { node_id } = await a.runtime.connection.db
              .selectFrom('task')
              .select('node_id')
              .where('id', '=', taskId)
              .executeTakeFirstOrThrow();
            return (
              node_id === a.runtime.services.clusterBus?.nodeId &&
              messages.some((m) => m.type === 'logs' && m.task_id === taskId)
            );
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(true);
    } finally {
      socket.close();
    }
  }, 60_000);
});
