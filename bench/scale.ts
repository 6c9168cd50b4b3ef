import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { createTaskRetention } from '../apps/server/src/modules/tasks/task-retention.ts';
import { createTaskRetentionRepository } from '../apps/server/src/modules/tasks/task-retention.repository.ts';
import type { GeneratedYear } from './scale-year.ts';
import { openStoreWithYear, percentile, readDialectFlag } from './support.ts';

/**
 * A year of busy use on one box (issue 15): fills a store with bench/scale-year.ts at a small and a
 * full size, then for each list endpoint the web UI uses prints the single-request time at both
 * sizes with their ratio, and p50/p99/req/s with 50 concurrent clients at the full size; with
 * --purge, the history's p99 for --purge-clients readers (10) before and while retention deletes half
 * the year. Clients run in a worker thread over kept-alive connections to 127.0.0.1, so the server's
 * event loop is the server's alone.
 *
 *   npm run bench:scale -- --db postgres --tasks 1000000 --lines 20000000 --purge
 */

const { values: flags } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    tasks: { type: 'string', default: '1000000' },
    lines: { type: 'string' },
    baseline: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    purge: { type: 'boolean', default: false },
    'purge-seconds': { type: 'string', default: '60' },
    // The people reading the history while retention runs: a team's open browsers, not the 50-client load test.
    'purge-clients': { type: 'string', default: '10' },
  },
});
const dialect = readDialectFlag(flags.db);
const FULL_TASKS = Number(flags.tasks);
const LINES_PER_TASK = flags.lines ? Number(flags.lines) / FULL_TASKS : 20;
const BASELINE_TASKS = Number(flags.baseline);
const CLIENTS = Number(flags.clients);
const PURGE_CLIENTS = Number(flags['purge-clients']);
const SECONDS = Number(flags.seconds);
const P99_TARGET_MS = 100;
const RATIO_TARGET = 1.5;
const PURGE_P99_TARGET_MS = 250;
const SINGLE_RUNS = 30;
const DAY_MS = 86_400_000;

interface Endpoint {
  name: string;
  path: string;
}

function listEndpoints(year: GeneratedYear, firstPageEnd: number, outputTask: number, userId: number): Endpoint[] {
  const project = `/api/project/${year.projectIds[0]}`;
  const template = year.templateIds[0]![0]!;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  return [
    { name: 'history (tasks/last)', path: `${project}/tasks/last` },
    { name: 'history, next page (before_id)', path: `${project}/tasks/last?before_id=${firstPageEnd}` },
    { name: 'templates with last tasks', path: `${project}/templates` },
    { name: "a template's tasks (last 200)", path: `${project}/templates/${template}/tasks/last?limit=200` },
    { name: 'stats, week', path: `${project}/templates/${template}/stats?start=${day(7)}` },
    { name: 'stats, month', path: `${project}/templates/${template}/stats?start=${day(30)}` },
    { name: 'stats, year', path: `${project}/templates/${template}/stats?start=${day(365)}` },
    { name: 'stats, week, one user', path: `${project}/templates/${template}/stats?start=${day(7)}&user_id=${userId}` },
    {
      name: 'stats, month, one user',
      path: `${project}/templates/${template}/stats?start=${day(30)}&user_id=${userId}`,
    },
    {
      name: 'stats, year, one user',
      path: `${project}/templates/${template}/stats?start=${day(365)}&user_id=${userId}`,
    },
    { name: 'activity (project events/last)', path: `${project}/events/last` },
    { name: 'activity (events/last)', path: '/api/events/last' },
    { name: 'active tasks', path: '/api/tasks' },
    { name: 'schedules', path: `${project}/schedules` },
    { name: 'inventories', path: `${project}/inventory` },
    { name: 'keys', path: `${project}/keys` },
    { name: 'users', path: '/api/users' },
    { name: 'task output, first page', path: `${project}/tasks/${outputTask}/output?offset=0&limit=500` },
  ];
}

/** The load side, in a worker thread: `clients` loops over kept-alive connections, each sending the next request when the last is answered. */
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, cookie, path, clients, seconds, sequential } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
function get() {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http.get({ host: '127.0.0.1', port, path, agent, headers: { cookie } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(path + ': ' + res.statusCode))));
    }).on('error', reject);
  });
}
(async () => {
  const latencies = [];
  if (sequential) {
    for (let i = 0; i < 3; i++) await get();
    for (let i = 0; i < sequential; i++) latencies.push(await get());
    parentPort.postMessage({ latencies, elapsed: 0 });
  } else {
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(Array.from({ length: clients }, async () => { while (performance.now() < until) latencies.push(await get()); }));
    parentPort.postMessage({ latencies, elapsed: performance.now() - started });
  }
  agent.destroy();
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

interface LoadResult {
  latencies: number[];
  elapsed: number;
}

function runLoad(
  port: number,
  cookie: string,
  requestPath: string,
  options: { clients: number; seconds: number; sequential?: number },
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, {
      eval: true,
      workerData: { port, cookie, path: requestPath, ...options, sequential: options.sequential ?? 0 },
    });
    worker.once('message', (message: LoadResult & { error?: string }) => {
      void worker.terminate();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

interface Installation {
  year: GeneratedYear;
  port: number;
  cookie: string;
  endpoints: Endpoint[];
  /** Runs retention for half the year's tasks for at most `seconds`; resolves with the tasks removed and whether it finished. */
  purge(days: number, seconds: number): Promise<{ removed: number; finished: boolean }>;
  close(): Promise<void>;
}

async function openInstallation(label: string, tasks: number): Promise<Installation> {
  const started = performance.now();
  let lastReport = started;
  const { installation, db, year, seconds } = await openStoreWithYear(dialect, 'scaledata-data-', {
    tasks,
    lines: Math.round(tasks * LINES_PER_TASK),
    onProgress(message) {
      if (performance.now() - lastReport < 15_000) return;
      lastReport = performance.now();
      console.log(`      ... ${message} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    },
  });
  console.log(
    `  ${label}: generated ${year.taskCount.toLocaleString('en')} tasks and ${year.lineCount.toLocaleString('en')} log lines on ${dialect} in ${seconds.toFixed(1)} s ` +
      `(${Math.round((year.taskCount + year.lineCount) / seconds).toLocaleString('en')} rows/s)`,
  );
  // Planner statistics as autovacuum would have them on a store that grew over a year.
  if (dialect === 'postgres') await sql`analyze`.execute(db);
  if (dialect === 'mysql') await sql`analyze table task, task_output, event, task_stat_day`.execute(db);

  const { port, cookie } = await installation.serve();

  const projectId = year.projectIds[0]!;
  const page = await db
    .selectFrom('task')
    .select('id')
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .offset(199)
    .limit(1)
    .executeTakeFirstOrThrow();
  const outputTask = await db
    .selectFrom('task')
    .select('id')
    .where('project_id', '=', projectId)
    .where('output_lines', '>=', 500)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const template = year.templateIds[0]![0]!;
  const user = await db
    .selectFrom('task')
    .select('user_id')
    .where('template_id', '=', template)
    .where('user_id', 'is not', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const endpoints = listEndpoints(year, Number(page.id), Number(outputTask?.id ?? page.id), Number(user.user_id));

  return {
    year,
    port,
    cookie,
    endpoints,
    async purge(days, seconds) {
      const retention = createTaskRetention({
        config: { task_retention_days: days, max_tasks_per_template: 0 },
        clock: { now: () => new Date() },
        logger: { info: () => undefined, error: (error: unknown) => console.error(error) },
        history: createTaskRetentionRepository(db, dialect),
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        void retention.stop();
      }, seconds * 1000);
      const removed = await retention.runOnce();
      clearTimeout(timer);
      return { removed, finished: !timedOut };
    },
    close: installation.close,
  };
}

async function measureSingle(installation: Installation): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const endpoint of installation.endpoints) {
    const result = await runLoad(installation.port, installation.cookie, endpoint.path, {
      clients: 1,
      seconds: 0,
      sequential: SINGLE_RUNS,
    });
    times.set(endpoint.name, percentile(result.latencies, 50));
  }
  return times;
}

async function main(): Promise<boolean> {
  console.log(
    `Scale: ${dialect}, ${BASELINE_TASKS.toLocaleString('en')} vs ${FULL_TASKS.toLocaleString('en')} tasks (${LINES_PER_TASK} log lines per task), ${CLIENTS} clients for ${SECONDS} s per endpoint`,
  );
  const small = await openInstallation('small', BASELINE_TASKS);
  const baseline = await measureSingle(small);
  await small.close();

  const full = await openInstallation('full', FULL_TASKS);
  const single = await measureSingle(full);
  let ok = true;
  console.log('');
  console.log(
    `| Endpoint | single @${BASELINE_TASKS / 1000}k | single @${FULL_TASKS / 1000}k | ratio | req/s | p50 | p99 | server thread ms/req |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const endpoint of full.endpoints) {
    // The server thread's busy time per request: what the box's load does not change much, unlike latencies.
    const idleBefore = performance.eventLoopUtilization();
    const load = await runLoad(full.port, full.cookie, endpoint.path, { clients: CLIENTS, seconds: SECONDS });
    const busy = performance.eventLoopUtilization(idleBefore).active / load.latencies.length;
    const p99 = percentile(load.latencies, 99);
    const before = baseline.get(endpoint.name) ?? 0;
    const after = single.get(endpoint.name) ?? 0;
    const ratio = after / before;
    // Sub-millisecond answers differ by scheduling noise, not by the size of the store.
    const ratioOk = ratio <= RATIO_TARGET || after - before < 1;
    const p99Ok = p99 <= P99_TARGET_MS;
    if (!ratioOk || !p99Ok) ok = false;
    console.log(
      `| ${endpoint.name} | ${before.toFixed(2)} ms | ${after.toFixed(2)} ms | ${ratio.toFixed(2)}x${ratioOk ? '' : ' MISS'} | ` +
        `${Math.round((load.latencies.length * 1000) / load.elapsed).toLocaleString('en')} | ${percentile(load.latencies, 50).toFixed(1)} ms | ${p99.toFixed(1)} ms${p99Ok ? '' : ' MISS'} | ${busy.toFixed(2)} |`,
    );
  }
  console.log(
    `(targets: p99 <= ${P99_TARGET_MS} ms on PostgreSQL; single request at the full size <= ${RATIO_TARGET}x its time at the baseline)`,
  );
  console.log(
    `(load average while measuring: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${os.availableParallelism()} cores)`,
  );

  if (flags.purge) {
    console.log('');
    const history = full.endpoints[0]!;
    // The same readers without the purge first, so the figure during it can be told from the machine's load.
    const quiet = await runLoad(full.port, full.cookie, history.path, { clients: PURGE_CLIENTS, seconds: 10 });
    console.log(
      `      history with ${PURGE_CLIENTS} clients before the purge: ${quiet.latencies.length.toLocaleString('en')} requests, p50 ${percentile(quiet.latencies, 50).toFixed(1)} ms, p99 ${percentile(quiet.latencies, 99).toFixed(1)} ms`,
    );
    const started = performance.now();
    let outcome: { removed: number; finished: boolean } | undefined;
    const purge = full.purge(182, Number(flags['purge-seconds'])).then((result) => (outcome = result));
    const samples: number[] = [];
    while (outcome === undefined) {
      const load = await runLoad(full.port, full.cookie, history.path, { clients: PURGE_CLIENTS, seconds: 2 });
      samples.push(...load.latencies);
    }
    await purge;
    const seconds = (performance.now() - started) / 1000;
    const p99 = percentile(samples, 99);
    const purgeOk = p99 < PURGE_P99_TARGET_MS;
    if (!purgeOk) ok = false;
    const rate = outcome.removed / seconds;
    console.log(
      `${purgeOk ? 'PASS' : 'MISS'}  retention removed ${outcome.removed.toLocaleString('en')} tasks with their lines in ${seconds.toFixed(1)} s (${rate.toFixed(0)} tasks/s` +
        `${outcome.finished ? ', all of the older half of the year' : `, stopped after ${flags['purge-seconds']} s`}); ` +
        `history with ${PURGE_CLIENTS} clients meanwhile: ${samples.length.toLocaleString('en')} requests, p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target < ${PURGE_P99_TARGET_MS} ms)`,
    );
  }
  await full.close();
  return ok;
}

const ok = await main();
console.log(ok ? 'All scale targets met.' : 'Some scale targets were missed.');
process.exit(0);
