import os from 'node:os';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { percentile, ratio, readFlag } from './support.ts';
import {
  connectClient,
  cpuMilliseconds,
  createBenchProject,
  machineBusyMilliseconds,
  makeTempDir,
  newAccessKey,
  openBenchStore,
  readRssMiB,
  startNode,
} from './gantry-nodes.ts';

/**
 * Sustained launch rate: short tasks started at a steady rate for a while, half through the API and
 * half through a webhook, against one Gantry server process. Prints the launch rate reached, the
 * dispatch time of every task (created to running, and created to its script's first line), the
 * answers' times, and the server's memory over the run.
 *
 *   npx tsx bench/sustained-launch.ts --store sqlite --rate 100 --duration 600 [--pool 30] [--cpu-prof <dir>]
 *
 * Targets (issue 15): 100 launches a second for 10 minutes, dispatch p95 <= 50 ms, no memory growth.
 */

/** The server's count of statements sent to its store, from its metrics (NaN from a server without it). */
async function readStatementCount(client: Awaited<ReturnType<typeof connectClient>>): Promise<number> {
  const answer = await client.call('GET', '/api/metrics');
  const line = String(answer.body)
    .split('\n')
    .find((l) => l.startsWith('gantry_store_queries_total '));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
}

const dialect = (readFlag('store') ?? 'sqlite') as Dialect;
const rate = Number(readFlag('rate') ?? 100);
const durationS = Number(readFlag('duration') ?? 60);
const DISPATCH_P95_TARGET_MS = 50;
const MEMORY_GROWTH_TARGET = 1.2;

const temp = makeTempDir('launch');
const store = await openBenchStore(dialect, temp.dir);
const profileDir = readFlag('cpu-prof');
const pool = readFlag('pool');
const node = await startNode({
  store,
  dataDir: temp.dir,
  accessKey: newAccessKey(),
  env: {
    ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
    ...(pool ? { GANTRY_DB_MAX_CONNECTIONS: pool } : {}),
  },
});
const pid = node.child.pid ?? 0;
try {
  const client = await connectClient(node.url, 64);
  const project = await createBenchProject(client, `${temp.dir}/scripts`, { 'go.sh': 'echo go\n' });
  const template = project.templates['go.sh'];
  if (!template) throw new Error('no template');

  const statementsBefore = await readStatementCount(client);
  const cpuBefore = cpuMilliseconds(pid) ?? Number.NaN;
  const machineBefore = machineBusyMilliseconds() ?? Number.NaN;
  const answerMs = { api: [] as number[], webhook: [] as number[] };
  const refusals = new Map<string, number>();
  let failed = 0;
  let sent = 0;
  const memory: { at: number; rss: number }[] = [];
  const started = performance.now();
  const sampler = setInterval(
    () => memory.push({ at: (performance.now() - started) / 1000, rss: readRssMiB(pid) }),
    5000,
  );
  const inFlight = new Set<Promise<void>>();
  console.log(`      ${dialect}: ${rate} launches/s for ${durationS} s (half API, half webhook), server pid ${pid}`);
  // Launches are paced against the clock, not by a fixed sleep: a slow answer does not lower the rate.
  while (performance.now() - started < durationS * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (sent < due) {
      const viaWebhook = sent % 2 === 1;
      sent += 1;
      const launch = (
        viaWebhook
          ? client.call('POST', template.webhook, {})
          : client.call('POST', `${project.base}/tasks`, { template_id: template.id })
      )
        .then((answer) => {
          if (answer.status < 300) answerMs[viaWebhook ? 'webhook' : 'api'].push(answer.ms);
          else {
            failed += 1;
            refusals.set(
              `${answer.status} ${JSON.stringify(answer.body)}`,
              (refusals.get(`${answer.status} ${JSON.stringify(answer.body)}`) ?? 0) + 1,
            );
          }
        })
        .catch((error: unknown) => {
          failed += 1;
          refusals.set(String(error), (refusals.get(String(error)) ?? 0) + 1);
        });
      inFlight.add(launch);
      void launch.finally(() => inFlight.delete(launch));
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const sendingS = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  // Every launched task must finish; a bounded wait.
  const db = store.connection.db;
  const deadline = Date.now() + 120_000;
  let unfinished = 0;
  for (;;) {
    const row = await db
      .selectFrom('task')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['waiting', 'starting', 'running'])
      .executeTakeFirstOrThrow();
    unfinished = Number(row.n);
    if (unfinished === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  clearInterval(sampler);
  // Every statement of the run (the launches, the tasks, the dispatcher, the sweeps, the count above).
  const statements = (await readStatementCount(client)) - statementsBefore;
  // The server process's own CPU (its threads, not the processes it starts), which other load hardly moves.
  const cpuMs = (cpuMilliseconds(pid) ?? Number.NaN) - cpuBefore;
  // Everything the machine did meanwhile: the server, the processes of the tasks, the store, this client.
  const machineMs = (machineBusyMilliseconds() ?? Number.NaN) - machineBefore;
  const tasks = await db
    .selectFrom('task')
    .select(['id', 'created', 'start', 'status'])
    .where('project_id', '=', project.projectId)
    .execute();
  const firstLines = await db
    .selectFrom('task_output')
    .select(['task_id', 'time'])
    .where('output', '=', 'go')
    .execute();
  const lineAt = new Map(firstLines.map((l) => [Number(l.task_id), Date.parse(l.time)]));
  const toRunning = tasks.filter((t) => t.start).map((t) => Date.parse(t.start ?? '') - Date.parse(t.created));
  const toScript = tasks.flatMap((t) =>
    lineAt.has(Number(t.id)) ? [(lineAt.get(Number(t.id)) ?? 0) - Date.parse(t.created)] : [],
  );
  const succeeded = tasks.filter((t) => t.status === 'success').length;
  // Whether a lag grows over the run (the server falls behind) or stays flat: p95 per tenth of the run.
  const firstCreated = Math.min(...tasks.map((t) => Date.parse(t.created)));
  const tenths = Array.from({ length: 10 }, () => [] as number[]);
  for (const t of tasks) {
    const line = lineAt.get(Number(t.id));
    const tenth = Math.min(9, Math.floor(((Date.parse(t.created) - firstCreated) / (sendingS * 1000)) * 10));
    if (line !== undefined) tenths[tenth]?.push(line - Date.parse(t.created));
  }

  const fmt = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms, max ${percentile(values, 100).toFixed(0)} ms`;
  console.log(
    `      launched ${sent} in ${sendingS.toFixed(0)} s = ${(sent / sendingS).toFixed(1)}/s (${((sent / sendingS) * 60).toFixed(0)}/min); refused or failed ${failed}; tasks stored ${tasks.length}, succeeded ${succeeded}, unfinished ${unfinished}`,
  );
  console.log(
    `      store statements (begin and commit included) per launched task: ${(statements / Math.max(1, sent)).toFixed(1)}`,
  );
  console.log(
    `      CPU per launched task: server process ${(cpuMs / Math.max(1, sent)).toFixed(2)} ms, whole machine ${(machineMs / Math.max(1, sent)).toFixed(2)} ms (${os.availableParallelism()} cores)`,
  );
  console.log(`      answer to an API launch: ${fmt(answerMs.api)}`);
  console.log(`      answer to a webhook call: ${fmt(answerMs.webhook)}`);
  for (const [refusal, count] of refusals) console.log(`      refused or failed ${count}x: ${refusal.slice(0, 200)}`);
  console.log(`      created -> running: ${fmt(toRunning)}`);
  console.log(`      created -> script's first line: ${fmt(toScript)}`);
  console.log(
    `      created -> script's first line, p95 per tenth of the run (ms): ${tenths.map((values) => percentile(values, 95).toFixed(0)).join(' ')}`,
  );
  const third = Math.max(1, Math.floor(memory.length / 3));
  const early = memory.slice(0, third).map((m) => m.rss);
  const late = memory.slice(-third).map((m) => m.rss);
  const avg = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  console.log(`      server RSS (MiB) every 5 s: ${memory.map((m) => m.rss.toFixed(0)).join(' ')}`);
  const results = [
    ratio(`${dialect}: launches per second`, rate, sent / sendingS, 1.02, '/s'),
    ratio(
      `${dialect}: dispatch p95 (created -> script's first line) vs ${DISPATCH_P95_TARGET_MS} ms`,
      percentile(toScript, 95),
      DISPATCH_P95_TARGET_MS,
      1,
    ),
    ratio(
      `${dialect}: server memory, last third of the run vs first third`,
      avg(late),
      avg(early),
      MEMORY_GROWTH_TARGET,
      'MiB',
    ),
  ];
  const complete = failed === 0 && unfinished === 0 && succeeded === sent;
  console.log(
    `${complete ? 'PASS' : 'MISS'}  ${dialect}: every launch answered and its task succeeded (${succeeded}/${sent})`,
  );
  console.log([...results, complete].every(Boolean) ? 'All targets met.' : 'Some targets were missed.');
  client.close();
} finally {
  node.child.kill('SIGTERM');
  await new Promise((resolve) => node.child.once('exit', resolve));
  await store.drop();
  temp.remove();
}
process.exit(0);
