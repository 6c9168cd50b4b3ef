import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readTestEnvironment } from '../src/config.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const REDIS_URL = process.env.GANTRY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function isRedisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => {
      socket.end();
      resolve(true);
    });
    socket.setTimeout(3000, () => resolve(false));
    socket.on('error', () => resolve(false));
  });
}

const redisReachable = await isRedisReachable();
if (!redisReachable) {
  if (readTestEnvironment().ci) throw new Error(`Redis is not reachable at ${REDIS_URL}: CI must run the cluster tests`);
  console.warn(`Skipping cluster tests: Redis is not reachable at ${REDIS_URL}`);
}
const dialects = redisReachable ? await listTestDialects() : [];

describe.each(dialects)('two Gantry nodes sharing one %s store and Redis', (dialect) => {
  let a: TestApp;
  let b: TestApp;
  let p: ProjectFixture;
  let portB = 0;

  beforeAll(async () => {
    a = await createTestApp(dialect, { redis_url: REDIS_URL });
    b = await createTestApp(dialect, { redis_url: REDIS_URL, db_url: a.runtime.config.db_url, access_key_encryption: a.runtime.config.access_key_encryption });
    await Promise.all([a.runtime.services.clusterBus?.ready, b.runtime.services.clusterBus?.ready]);
    p = await createProjectFixture(a, { 'count.sh': 'for i in $(seq 1 500); do echo "n$i"; done\n' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    const address = b.app.server.address();
    portB = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a browser connected to one node watches, live and in order, a task that runs on the other', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${portB}/api/ws?batch=1`, { headers: { cookie: a.adminCookie } });
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve, reject) => socket.on('open', resolve).on('error', reject));

    const templateId = await p.createTemplate({ playbook: 'count.sh' });
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['success']);
    await expect.poll(() => messages.some((m) => m.type === 'update' && m.task_id === taskId && m.status === 'success')).toBe(true);

    const updates = messages.filter((m) => m.type === 'update' && m.task_id === taskId).map((m) => m.status);
    expect(updates).toEqual(['starting', 'running', 'success']);
    const lines = messages.filter((m) => m.type === 'logs' && m.task_id === taskId).flatMap((m) => (m.lines as { seq: number; output: string }[]));
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
    expect(lines.map((l) => l.output).filter((o) => /^n\d+$/.test(o))).toEqual(Array.from({ length: 500 }, (_, i) => `n${i + 1}`));
    socket.close();
  });

  it('a node whose Redis messages were lost still delivers every line, read back from the shared store', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${portB}/api/ws?batch=1`, { headers: { cookie: a.adminCookie } });
    const messages: Record<string, unknown>[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve, reject) => socket.on('open', resolve).on('error', reject));

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
      const templateId = await p.createTemplate({ playbook: 'count.sh' });
      const taskId = await p.runTask(templateId);
      await p.waitForStatus(taskId, ['success']);
      await expect.poll(() => messages.some((m) => m.type === 'update' && m.task_id === taskId && m.status === 'success')).toBe(true);
      expect(dropped).toBeGreaterThan(0);
      const lines = messages.filter((m) => m.type === 'logs' && m.task_id === taskId).flatMap((m) => (m.lines as { seq: number; output: string }[]));
      expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
      expect(lines.map((l) => l.output).filter((o) => /^n\d+$/.test(o))).toEqual(Array.from({ length: 500 }, (_, i) => `n${i + 1}`));
    } finally {
      bus.publish = publish;
      socket.close();
    }
  });
});
