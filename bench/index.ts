import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { median, openBenchDatabase, ratio, readFlag, spawnAndWait, spawnTrue, startBenchServer } from './support.ts';

/**
 * Task engine and log pipeline benchmarks. Each prints the measured value next to a baseline
 * measured on the same machine, and the ratio against the target.
 */

async function dispatchLatency(): Promise<boolean> {
  const server = await startBenchServer();
  const stampFile = path.join(os.tmpdir(), `gantry-bench-stamp-${process.pid}`);
  const templateId = await server.createTemplate('stamp', `date +%s%3N > '${stampFile}'\n`, {
    allow_parallel_tasks: true,
  });
  const latencies: number[] = [];
  for (let i = 0; i < 30; i++) {
    const { id, respondedAt } = await server.postTask(templateId);
    await server.waitForStatus(id, ['success', 'error']);
    latencies.push(Number(readFileSync(stampFile, 'utf8').trim()) - respondedAt);
  }
  rmSync(stampFile, { force: true });
  await server.close();
  const bare: number[] = [];
  for (let i = 0; i < 30; i++) bare.push(await spawnTrue());
  const measured = median(latencies);
  console.log(
    `      dispatch: median ${measured} ms from the POST response to the script running (target <= 50 ms); bare spawn median ${median(bare).toFixed(1)} ms`,
  );
  return ratio('dispatch latency vs 50 ms budget', measured, 50, 1);
}

/**
 * 200 one-line tasks posted at once against the same processes spawned 20 at a time by hand. The
 * machine is shared, so the two are measured in turn three times and the medians compared.
 */
async function queueThroughput(): Promise<boolean> {
  const tasks = 200;
  const limit = 20;
  const rounds = 3;
  const server = await startBenchServer({ max_parallel_tasks: limit });
  const templateId = await server.createTemplate('oneline', 'echo one line\n', { allow_parallel_tasks: true });
  const baselines: number[] = [];
  const measured: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    for (let i = 0; i < tasks; i += limit)
      await Promise.all(
        Array.from({ length: Math.min(limit, tasks - i) }, () => spawnAndWait('bash', ['-c', 'echo one line'])),
      );
    baselines.push(performance.now() - started);

    const begin = performance.now();
    const ids = await Promise.all(Array.from({ length: tasks }, () => server.postTask(templateId)));
    for (const { id } of ids) await server.waitForStatus(id, ['success', 'error']);
    measured.push(performance.now() - begin);
  }
  await server.close();
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');
  console.log(`      queue: ${rounds} rounds, tasks ${list(measured)} ms, direct spawns ${list(baselines)} ms`);
  return ratio(
    `${tasks} queued one-line tasks, global limit ${limit} (medians)`,
    median(measured),
    median(baselines),
    2,
  );
}

/**
 * A task printing `lines` lines, from the POST to its final status, against the same lines inserted
 * by hand in batches into the same store; the target is an absolute rate, whatever the store.
 */
async function millionLinesOn(dialect: Dialect, lines: number): Promise<boolean[]> {
  const store = await openBenchDatabase(dialect);
  const server = await startBenchServer(store.overrides);
  const db = server.runtime.connection.db;

  // Baseline: the same lines inserted by hand into the same database, 2,000-line multi-row inserts of
  // the query builder, each in its own transaction, nothing else (not Gantry's own way of storing them,
  // so that the ratio compares ways of storing, whatever the machine's load).
  const baselineTask = await server.createTemplate('baseline', 'true\n');
  const { id: baselineId } = await server.postTask(baselineTask);
  await server.waitForStatus(baselineId, ['success']);
  const offset = 1_000_000_000;
  const now = new Date().toISOString();
  const bareStart = performance.now();
  for (let i = 0; i < lines; i += 2000) {
    const rows = Array.from({ length: Math.min(2000, lines - i) }, (_, j) => ({
      task_id: baselineId,
      seq: offset + i + j,
      time: now,
      output: String(i + j + 1),
    }));
    await db.transaction().execute((trx) => trx.insertInto('task_output').values(rows).execute());
  }
  const baseline = performance.now() - bareStart;

  const templateId = await server.createTemplate('million', `seq 1 ${lines}\n`);
  const begin = performance.now();
  const cpuBefore = process.cpuUsage();
  const { id } = await server.postTask(templateId);
  await server.waitForStatus(id, ['success', 'error']);
  const measured = performance.now() - begin;
  // The server's own processor time for the task (less at the mercy of the machine's load than the wall clock).
  const cpu = process.cpuUsage(cpuBefore);
  const stored = await db
    .selectFrom('task_output')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('seq').as('last')])
    .where('task_id', '=', id)
    .executeTakeFirstOrThrow();
  const allStored = Number(stored.n) === Number(stored.last) + 1 && Number(stored.n) >= lines;
  const rate = lines / (measured / 1000);
  console.log(
    `      ${dialect}: ${Number(stored.n)} records stored with consecutive sequence numbers: ${allStored}; bare batched insert ${Math.round(lines / (baseline / 1000)).toLocaleString('en')} lines/s; server CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (load average ${os.loadavg()[0]?.toFixed(1)})`,
  );
  const ingestion = ratio(
    `${dialect}: ${lines.toLocaleString('en')}-line task ingestion vs bare batched insert`,
    measured,
    baseline,
    1.5,
  );
  const fast = rate >= 300_000;
  console.log(
    `${fast ? 'PASS' : 'MISS'}  ${dialect}: ${Math.round(rate).toLocaleString('en')} lines/s end to end (target >= 300,000 lines/s)`,
  );
  await server.close();
  await store.drop();
  return [ingestion, fast, allStored];
}

async function millionLines(): Promise<boolean[]> {
  const lines = Number(readFlag('lines') ?? 1_000_000);
  const results: boolean[] = [];
  for (const dialect of (readFlag('stores') ?? 'sqlite,postgres,mysql').split(',') as Dialect[])
    results.push(...(await millionLinesOn(dialect, lines)));
  return results;
}

/** 100 websocket clients in another process watch a 1,000,000-line task; each must get every line in order. */
async function websocketFanOut(): Promise<boolean> {
  const lines = Number(readFlag('lines') ?? 1_000_000);
  const clients = 100;
  const server = await startBenchServer();
  const templateId = await server.createTemplate('fanout', `seq 1 ${lines}\n`);
  const child = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, '../node_modules/.bin/tsx'),
      path.join(import.meta.dirname, 'ws-clients.ts'),
      `ws://127.0.0.1:${server.port}/api/ws?batch=1`,
      server.cookie,
      String(clients),
      String(lines),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  const ready = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve();
    }),
  );
  await ready;
  const begin = performance.now();
  await server.postTask(templateId);
  await new Promise((resolve) => child.on('close', resolve));
  const result = JSON.parse(output.split('\n').find((l) => l.startsWith('{')) ?? '{}') as {
    clients?: number;
    complete?: number;
  };
  const ok = result.complete === clients;
  console.log(
    `${ok ? 'PASS' : 'MISS'}  ${result.complete ?? 0}/${clients} websocket clients received all ${lines} lines in order (${((performance.now() - begin) / 1000).toFixed(1)} s)`,
  );
  await server.close();
  return ok;
}

// `npm run bench -- queue` (or dispatch, lines, fanout) runs one benchmark; no argument runs them all.
// `lines` takes `--stores sqlite,postgres,mysql` and `--lines 1000000`; `fanout` takes `--lines`.
const only = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
const benchmarks: Record<string, () => Promise<boolean | boolean[]>> = {
  dispatch: dispatchLatency,
  queue: queueThroughput,
  lines: millionLines,
  fanout: websocketFanOut,
};
if (only !== undefined && !(only in benchmarks))
  throw new Error(`Unknown benchmark ${only}; one of ${Object.keys(benchmarks).join(', ')}`);
const results: boolean[] = [];
for (const [name, run] of Object.entries(benchmarks))
  if (only === undefined || only === name) results.push(...[await run()].flat());
console.log(results.every(Boolean) ? 'All benchmark targets met.' : 'Some benchmark targets were missed.');
process.exit(0);
