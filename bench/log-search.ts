import type { Dialect } from '../apps/server/src/db/database.ts';
import { median, openBenchDatabase, ratio, readFlag, startBenchServer } from './support.ts';

/**
 * Search inside one task's log (issue 16): on a 1,000,000-line log of Ansible-like lines, the time
 * from asking to the answer holding the match count and the first page of matching lines, against
 * the 500 ms target; plain text, case-insensitive text and a regular expression, on each store.
 * Run: npx tsx bench/log-search.ts [--stores sqlite,postgres,mysql] [--lines 1000000]
 */

const TARGET_MS = 500;
const RUNS = 5;

// Every 100,000th line is a failure; the others look like the "ok" lines of a long play.
const script = (lines: number) =>
  `awk 'BEGIN { for (i = 1; i <= ${lines}; i++) { if (i % 100000 == 0) print "fatal: [db-" i "]: FAILED! => {\\"msg\\": \\"unreachable\\"}"; else print "ok: [web-" i % 50 ".example.com] => (item=package-" i ") changed=false" } }'\n`;

const SEARCHES = [
  { label: 'plain text', query: 'q=FAILED!&case=true' },
  { label: 'text, any case', query: 'q=failed!' },
  { label: 'regular expression', query: `q=${encodeURIComponent('^fatal: \\[db-\\d+\\]')}&regex=true` },
];

async function searchOn(dialect: Dialect, lines: number): Promise<boolean[]> {
  const store = await openBenchDatabase(dialect);
  const server = await startBenchServer(store.overrides);
  const templateId = await server.createTemplate('million', script(lines));
  const { id: taskId } = await server.postTask(templateId);
  await server.waitForStatus(taskId, ['success', 'error']);
  const url = `http://127.0.0.1:${server.port}/api/project/${server.projectId}/tasks/${taskId}/output/search?`;
  const results: boolean[] = [];
  for (const search of SEARCHES) {
    const times: number[] = [];
    let answer = { count: -1, lines: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await fetch(url + search.query, { headers: { cookie: server.cookie } });
      answer = (await response.json()) as typeof answer;
      if (!response.ok) console.log(`      ${response.status}: ${JSON.stringify(answer)}`);
      times.push(performance.now() - started);
    }
    const expected = Math.floor(lines / 100_000);
    const right = answer.count === expected && answer.lines.length === expected;
    console.log(
      `      ${dialect}, ${search.label}: ${answer.count} matches (expected ${expected}: ${right ? 'right' : 'WRONG'}); runs ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    );
    results.push(
      ratio(
        `${dialect}: search a ${lines.toLocaleString('en')}-line log, ${search.label}, count and first matches (median of ${RUNS})`,
        median(times),
        TARGET_MS,
        1,
      ) && right,
    );
  }
  await server.close();
  await store.drop();
  return results;
}

const lines = Number(readFlag('lines') ?? 1_000_000);
const results: boolean[] = [];
for (const dialect of (readFlag('stores') ?? 'sqlite,postgres,mysql').split(',') as Dialect[])
  results.push(...(await searchOn(dialect, lines)));
console.log(results.every(Boolean) ? 'All log search targets met.' : 'Some log search targets were missed.');
process.exit(0);
