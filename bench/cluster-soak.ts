import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import WebSocket from 'ws';
import { readTestEnvironment } from '../apps/server/src/config.ts';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { freePort } from '../apps/server/test/machine.ts';
import { GANTRY_SOURCE_BIN } from '../apps/server/test/server-process-fixture.ts';
import {
  connectClient,
  createBenchProject,
  makeTempDir,
  newAccessKey,
  openBenchStore,
  startNode,
  type Client,
} from './gantry-nodes.ts';
import { readFlag } from './support.ts';

/**
 * Cluster soak: three Gantry nodes on one PostgreSQL or MariaDB store and Redis, a remote runner,
 * tasks launched through the API and webhooks of every node and by a schedule firing every minute,
 * while one node after the other is SIGKILLed and started again. Prints what must hold:
 * no task left unfinished, no log line lost or out of order except those written in the last 100 ms
 * before a kill (counted), one schedule run per minute, every launch answered or retried, websocket
 * viewers of the surviving nodes receiving throughout.
 *
 *   npx tsx bench/cluster-soak.ts --store postgres --duration 600 --tasks 1000 --kill-every 120
 */

const dialect = (readFlag('store') ?? 'postgres') as Dialect;
const durationS = Number(readFlag('duration') ?? 600);
const taskCount = Number(readFlag('tasks') ?? 1000);
const killEveryS = Number(readFlag('kill-every') ?? 120);
const RESTART_AFTER_MS = 3000;
const SCRIPT_LINES = 100;
const LINE_EVERY_MS = 10;
const LOSS_WINDOW_MS = 100;

const temp = makeTempDir('soak');
const store = await openBenchStore(dialect, temp.dir);
const redisUrl = readTestEnvironment().redisUrl;
const accessKey = newAccessKey();
const ports = [await freePort(), await freePort(), await freePort()];
const nodeDirs = ports.map((_, i) => path.join(temp.dir, `node-${i}`));
const nodeOptions = (i: number) => ({
  store,
  dataDir: nodeDirs[i] ?? '',
  redisUrl,
  accessKey,
  env: { GANTRY_LOG_LEVEL: 'error' },
});
type Node = Awaited<ReturnType<typeof startNode>>;
const nodes: (Node | undefined)[] = [];
const children: ChildProcess[] = [];
// Whatever ends this process, the nodes and the runner it started end with it (they would go on running tasks).
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));
for (let i = 0; i < 3; i++) {
  nodes[i] = await startNode(nodeOptions(i), ports[i]);
  children.push(nodes[i]?.child as ChildProcess);
}
const urlOf = (i: number) => `http://127.0.0.1:${ports[i]}`;

const results: boolean[] = [];
const report = (ok: boolean, text: string) => {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'MISS'}  ${dialect}: ${text}`);
};

try {
  const clients: Client[] = [];
  for (let i = 0; i < 3; i++) clients.push(await connectClient(urlOf(i), 16));
  const admin = clients[0] as Client;
  const script = `for i in $(seq 1 ${SCRIPT_LINES}); do echo "line $i"; sleep ${LINE_EVERY_MS / 1000}; done\n`;
  const local = await createBenchProject(admin, path.join(temp.dir, 'scripts-local'), {
    'work.sh': script,
    'tick.sh': 'echo tick\n',
  });
  const remote = await createBenchProject(admin, path.join(temp.dir, 'scripts-remote'), { 'work.sh': script });
  const localWork = local.templates['work.sh'];
  const remoteWork = remote.templates['work.sh'];
  const tick = local.templates['tick.sh'];
  if (!localWork || !remoteWork || !tick) throw new Error('templates missing');

  // The remote runner belongs to one project: its tasks all run there, the other project's on the nodes.
  const runner = (await admin.call('POST', `${remote.base}/runners`, { name: 'soak runner' })).body as {
    id: number;
    token: string;
  };
  const runnerChild = spawn(
    process.execPath,
    [GANTRY_SOURCE_BIN, 'runner', 'start', '--server', urlOf(0), '--work-dir', path.join(temp.dir, 'runner')],
    {
      env: { PATH: readTestEnvironment().path, GANTRY_RUNNER_TOKEN: runner.token },
      stdio: 'ignore',
    },
  );
  children.push(runnerChild);

  const scheduleCreated = Date.now();
  const schedule = (
    await admin.call('POST', `${local.base}/schedules`, {
      name: 'every minute',
      template_id: tick.id,
      cron_format: '* * * * *',
      active: true,
    })
  ).body as { id: number };

  // Websocket viewers: one per node, reconnected after a restart; every log message is counted per second.
  const viewerCounts = ports.map(() => new Map<number, number>());
  const viewers: (WebSocket | undefined)[] = [];
  const watch = (i: number) => {
    const socket = new WebSocket(`ws://127.0.0.1:${ports[i]}/api/ws?batch=1`, { headers: { cookie: admin.cookie() } });
    socket.on('message', (data: Buffer) => {
      if (!data.toString().startsWith('{"type":"logs"')) return;
      const second = Math.floor(Date.now() / 1000);
      viewerCounts[i]?.set(second, (viewerCounts[i]?.get(second) ?? 0) + 1);
    });
    socket.on('error', () => undefined);
    viewers[i] = socket;
  };
  for (let i = 0; i < 3; i++) watch(i);

  const kills: { node: number; at: number; back: number }[] = [];
  const launches = { answered: 0, retried: 0, failed: 0, refused: new Map<string, number>() };
  const started = Date.now();
  const launchEveryMs = (durationS * 1000) / taskCount;
  let nextKill = started + killEveryS * 1000;
  let killTurn = 0;
  const restartFailures: string[] = [];
  const pending = new Set<Promise<void>>();

  async function launch(n: number): Promise<void> {
    const project = n % 2 === 0 ? local : remote;
    const template = n % 2 === 0 ? localWork : remoteWork;
    const viaWebhook = Math.floor(n / 2) % 2 === 1;
    // Each launch goes to the next node; a caller whose node does not answer tries the next one, with the
    // same key, so a task its dead node made before answering is not made twice.
    const requestKey = { 'Idempotency-Key': `soak-${started}-${n}` };
    for (let attempt = 0; attempt < 3; attempt++) {
      const client = clients[(n + attempt) % 3] as Client;
      try {
        const answer = viaWebhook
          ? await client.call('POST', template?.webhook ?? '', {}, requestKey)
          : await client.call('POST', `${project.base}/tasks`, { template_id: template?.id }, requestKey);
        if (answer.status < 300) {
          launches.answered += 1;
          if (attempt > 0) launches.retried += 1;
          return;
        }
        const key = `${answer.status} ${JSON.stringify(answer.body)}`.slice(0, 120);
        launches.refused.set(key, (launches.refused.get(key) ?? 0) + 1);
        if (answer.status < 500) break;
      } catch {
        // The node is down: the caller retries on another.
      }
    }
    launches.failed += 1;
  }

  async function killAndRestart(victim: number): Promise<void> {
    nodes[victim]?.child.kill('SIGKILL');
    const at = Date.now();
    await new Promise((resolve) => setTimeout(resolve, RESTART_AFTER_MS));
    nodes[victim] = await startNode(nodeOptions(victim), ports[victim]);
    children.push(nodes[victim]?.child as ChildProcess);
    clients[victim] = await connectClient(urlOf(victim), 16);
    watch(victim);
    kills.push({ node: victim, at, back: Date.now() });
    console.log(
      `      killed node ${victim} at ${((at - started) / 1000).toFixed(0)} s, serving again after ${((Date.now() - at) / 1000).toFixed(1)} s`,
    );
  }

  console.log(
    `      ${dialect}: 3 nodes, ${taskCount} tasks over ${durationS} s, a node SIGKILLed every ${killEveryS} s`,
  );
  for (let n = 0; n < taskCount; n++) {
    const due = started + n * launchEveryMs;
    while (Date.now() < due) {
      if (Date.now() >= nextKill) {
        nextKill += killEveryS * 1000;
        // Launches go on meanwhile: those meant for the dead node are retried by their caller on another.
        const restart = killAndRestart(killTurn++ % 3).catch((error: unknown) => {
          restartFailures.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
        });
        pending.add(restart);
        void restart.finally(() => pending.delete(restart));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.min(50, due - Date.now()))));
    }
    const call = launch(n);
    pending.add(call);
    void call.finally(() => pending.delete(call));
  }
  await Promise.all(pending);
  const launchedUntil = Date.now();

  const db = store.connection.db;
  const deadline = Date.now() + 120_000;
  let unfinished = 0;
  for (;;) {
    unfinished = Number(
      (
        await db
          .selectFrom('task')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'not in', ['success', 'error', 'stopped', 'rejected'])
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (unfinished === 0 || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const endedAt = Date.now();
  for (const socket of viewers) socket?.close();

  const launchedTasks = await db
    .selectFrom('task')
    .select(['id', 'status', 'project_id'])
    .where('schedule_id', 'is', null)
    .execute();
  report(
    launches.failed === 0,
    `launches answered ${launches.answered} (${launches.retried} after a retry on another node), failed ${launches.failed}${[...launches.refused].map(([k, v]) => `; ${v}x ${k}`).join('')}`,
  );
  report(launchedTasks.length === taskCount, `${launchedTasks.length} launched tasks stored for ${taskCount} launches`);
  report(
    unfinished === 0,
    `${unfinished} tasks left in a non-final state ${((endedAt - launchedUntil) / 1000).toFixed(0)} s after the last launch`,
  );

  // Log lines: consecutive sequence numbers; the script's lines in order; lines missing at the end only
  // for a task whose node was killed, and only if the last stored line came within 100 ms of the kill.
  let complete = 0;
  let reordered = 0;
  let lostNearKill = 0;
  let lostOtherwise = 0;
  let tasksCutByKill = 0;
  let afterKill = 0;
  const cutWindows: number[] = [];
  // What each task with a lost or misplaced line looked like, for whoever looks into it.
  const troubled: string[] = [];
  for (const task of launchedTasks) {
    const rows = await db
      .selectFrom('task_output')
      .select(['seq', 'time', 'output'])
      .where('task_id', '=', task.id)
      .orderBy('seq')
      .execute();
    const gapped = rows.some((row, i) => row.seq !== i);
    if (gapped) reordered += 1;
    const numbers = rows.flatMap((row) => (/^line (\d+)$/.exec(row.output) ? [Number(row.output.slice(5))] : []));
    const disordered = numbers.some((value, i) => value !== i + 1);
    if (disordered) reordered += 1;
    const missing = SCRIPT_LINES - numbers.length;
    if (gapped || disordered || missing > 0)
      troubled.push(
        `task ${task.id} (${task.project_id === remote.projectId ? 'runner' : 'node'}, ${task.status}): ${numbers.length} script lines of ${SCRIPT_LINES}${gapped ? ', a sequence gap' : ''}${disordered ? ', out of order' : ''}; its last lines: ${rows
          .slice(-3)
          .map((row) => `${row.seq} ${row.time.slice(11, 23)} ${row.output.slice(0, 60)}`)
          .join(' | ')}`,
      );
    if (missing === 0) {
      complete += 1;
      continue;
    }
    const closedByOthers = rows.some((row) =>
      row.output.startsWith('The Gantry server running this task stopped answering'),
    );
    const lastLine = [...rows].reverse().find((row) => /^line \d+$/.exec(row.output));
    const lastAt = lastLine ? Date.parse(lastLine.time) : 0;
    // The kill that cut the task: the first after its last stored line.
    const kill = kills.find((k) => k.at >= lastAt && k.at - lastAt <= 10_000);
    if (closedByOthers && kill) cutWindows.push(kill.at - lastAt);
    if (closedByOthers && kill && kill.at - lastAt <= LOSS_WINDOW_MS + LINE_EVERY_MS * 2) {
      tasksCutByKill += 1;
      // Lines the script printed in the window before the kill that never got stored.
      const nearKill = Math.min(missing, Math.max(0, Math.round((kill.at - lastAt) / LINE_EVERY_MS)));
      lostNearKill += nearKill;
      afterKill += missing - nearKill;
    } else lostOtherwise += missing;
  }
  if (cutWindows.length > 0)
    console.log(
      `      tasks cut by a kill: their last stored line came ${cutWindows.map((ms) => `${ms} ms`).join(', ')} before the kill`,
    );
  for (const line of troubled.slice(0, 12)) console.log(`      ${line}`);
  console.log(`      kills at ${kills.map((k) => new Date(k.at).toISOString().slice(11, 23)).join(', ')}`);
  report(reordered === 0, `${reordered} tasks with lines out of order or with a gap in their sequence numbers`);
  report(
    lostOtherwise === 0,
    `${complete} tasks with all ${SCRIPT_LINES} lines; ${tasksCutByKill} cut by a kill, losing ${lostNearKill} lines written in the last ${LOSS_WINDOW_MS} ms before it (their ${afterKill} later lines had no live node to write to); ${lostOtherwise} lines lost otherwise`,
  );

  // The schedule: one run in every whole minute between its creation and the end of the launches.
  const runs = await db.selectFrom('task').select('created').where('schedule_id', '=', schedule.id).execute();
  const perMinute = new Map<number, number>();
  for (const run of runs)
    perMinute.set(
      Math.floor(Date.parse(run.created) / 60_000),
      (perMinute.get(Math.floor(Date.parse(run.created) / 60_000)) ?? 0) + 1,
    );
  const minutes: number[] = [];
  for (let minute = Math.floor(scheduleCreated / 60_000) + 1; minute < Math.floor(launchedUntil / 60_000); minute++)
    minutes.push(perMinute.get(minute) ?? 0);
  report(
    minutes.every((count) => count === 1),
    `schedule runs per minute over ${minutes.length} whole minutes: ${minutes.join(' ')}`,
  );

  // Viewers of the nodes that stayed up: did each receive lines in the seconds after every kill?
  const silentAfterKill: string[] = [];
  for (const kill of kills) {
    for (let i = 0; i < 3; i++) {
      if (i === kill.node) continue;
      let received = 0;
      for (let second = Math.floor(kill.at / 1000); second <= Math.floor(kill.at / 1000) + 15; second++)
        received += viewerCounts[i]?.get(second) ?? 0;
      if (received === 0) silentAfterKill.push(`node ${i} after the kill of node ${kill.node}`);
    }
  }
  report(
    silentAfterKill.length === 0,
    `websocket viewers of the surviving nodes kept receiving through ${kills.length} kills${silentAfterKill.length ? `; silent: ${silentAfterKill.join(', ')}` : ''}`,
  );
  report(
    restartFailures.length === 0,
    `${kills.length} killed nodes ready again within 120 s${restartFailures.length ? `; not: ${restartFailures.join('; ')}` : ''}`,
  );
  const statuses = new Map<string, number>();
  for (const task of launchedTasks) statuses.set(task.status, (statuses.get(task.status) ?? 0) + 1);
  console.log(
    `      final statuses: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}; runner tasks ${launchedTasks.filter((t) => t.project_id === remote.projectId).length}`,
  );
  console.log(results.every(Boolean) ? 'All soak checks held.' : 'Some soak checks failed.');
  for (const client of clients) client.close();
} finally {
  for (const child of children) child.kill('SIGKILL');
  await store.drop().catch(() => undefined);
  temp.remove();
}
process.exit(0);
