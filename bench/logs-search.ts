import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { generateYear } from './scale-year.ts';
import { median, openBenchStore } from './support.ts';

/**
 * Search across task logs (issue 16 point 2): fills a store with bench/scale-year.ts (a year of tasks and
 * their Ansible-like lines), plants a rare line in a few tasks, then prints how fast the indexer builds the
 * search index (lines/s) and how long a search of a project answers (median of 5 over HTTP) against the 1 s
 * target: a rare phrase, the same with a status filter, and a word nearly every line holds (the worst case).
 *
 *   npx tsx bench/logs-search.ts --db postgres --tasks 20000 --lines 2000000
 */

const { values: flags } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    tasks: { type: 'string', default: '20000' },
    lines: { type: 'string', default: '2000000' },
    needles: { type: 'string', default: '60' },
  },
});
const dialect = flags.db as Dialect;
if (!['sqlite', 'postgres', 'mysql'].includes(dialect))
  throw new Error(`--db must be sqlite, postgres or mysql, not ${flags.db}`);
const TASKS = Number(flags.tasks);
const LINES = Number(flags.lines);
const NEEDLES = Number(flags.needles);
const TARGET_MS = 1000;
const RUNS = 5;
const NEEDLE = 'fatal: [db-7]: FAILED! => disk quota exceeded on /var/lib/postgresql';

const installation = await openBenchStore(dialect, 'logs-search-bench-');
const { runtime } = installation;
const { db } = runtime.connection;

let started = performance.now();
const year = await generateYear(db, dialect, {
  projects: 20,
  templates: 400,
  tasks: TASKS,
  lines: LINES,
  users: 60,
  now: new Date(),
});
console.log(
  `  ${dialect}: generated ${year.taskCount.toLocaleString('en')} tasks and ${year.lineCount.toLocaleString('en')} log lines in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

// A rare line in some finished tasks of the first project, spread over the year.
const projectId = year.projectIds[0]!;
const candidates = await db
  .selectFrom('task')
  .select(['id', 'output_lines'])
  .where('project_id', '=', projectId)
  .where('status', 'in', ['success', 'error'])
  .where('output_lines', '>', 10)
  .orderBy('id')
  .execute();
const step = Math.max(1, Math.floor(candidates.length / NEEDLES));
const planted = candidates.filter((_, i) => i % step === 0).slice(0, NEEDLES);
for (const task of planted)
  await db
    .updateTable('task_output')
    .set({ output: NEEDLE })
    .where('task_id', '=', task.id)
    .where('seq', '=', Math.floor(task.output_lines / 2))
    .execute();
const plantedErrors = await db
  .selectFrom('task')
  .select('id')
  .where(
    'id',
    'in',
    planted.map((task) => task.id),
  )
  .where('status', '=', 'error')
  .execute();

const totalLines = Number(
  (
    await db
      .selectFrom('task')
      .select((eb) => eb.fn.sum<number>('output_lines').as('n'))
      .where('status', 'in', ['success', 'error', 'stopped', 'rejected'])
      .executeTakeFirstOrThrow()
  ).n,
);
started = performance.now();
await runtime.services.logIndexer.catchUp();
const indexSeconds = (performance.now() - started) / 1000;
console.log(
  `  index build: ${totalLines.toLocaleString('en')} lines of finished tasks in ${indexSeconds.toFixed(1)} s = ${Math.round(totalLines / indexSeconds).toLocaleString('en')} lines/s`,
);
if (dialect === 'postgres') await sql`analyze`.execute(db);
if (dialect === 'mysql') await sql`analyze table task, task_output, task_log_index`.execute(db);

const { port, cookie } = await installation.serve();

const SEARCHES = [
  {
    label: 'rare phrase',
    query: `q=${encodeURIComponent('disk quota exceeded')}`,
    expected: Math.min(20, planted.length),
  },
  {
    label: 'rare phrase, status=error',
    query: `q=${encodeURIComponent('disk quota exceeded')}&status=error`,
    expected: Math.min(20, plantedErrors.length),
  },
  { label: 'a word nearly every line holds', query: 'q=example', expected: 20 },
];

let allMet = true;
for (const search of SEARCHES) {
  const times: number[] = [];
  let tasks = -1;
  for (let run = 0; run < RUNS; run++) {
    const begin = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/project/${projectId}/logs/search?${search.query}`, {
      headers: { cookie },
    });
    const body = (await response.json()) as { tasks?: unknown[]; error?: string };
    times.push(performance.now() - begin);
    if (!response.ok) console.log(`      ${response.status}: ${JSON.stringify(body)}`);
    tasks = body.tasks?.length ?? -1;
  }
  const ms = median(times);
  const right = tasks === search.expected;
  const ok = ms <= TARGET_MS && right;
  allMet &&= ok;
  console.log(
    `${ok ? 'PASS' : 'MISS'}  ${dialect}, ${totalLines.toLocaleString('en')} indexed lines, ${search.label}: ${ms.toFixed(0)} ms (runs ${times.map((t) => t.toFixed(0)).join(', ')}) = ${(ms / TARGET_MS).toFixed(2)}x the 1 s target; ${tasks} tasks on the first page (expected ${search.expected}: ${right ? 'right' : 'WRONG'})`,
  );
}
console.log(allMet ? 'All log search targets met.' : 'Some log search targets were missed.');

await installation.close();
process.exit(0);
