import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOG_SEARCH_LIMITS, createLogMatcher } from '../src/modules/tasks/log-matcher.ts';
import { createTaskLogSearch } from '../src/modules/tasks/task-log-search.ts';
import { createTaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

// Search terms carry a character (".", "[") that the random task ids and temporary directory names
// in the log never hold, so a chance "ok" in a path cannot change a count.
const SCRIPTS = {
  'log.sh': [
    'for i in $(seq 1 300); do echo "step $i ok."; done',
    'echo "Error: disk full on /var"',
    'printf "\\033[31mERROR\\033[0m red alert\\n"',
    'echo "an error in lower case"',
    'echo "version 1.2.3 and 1x2y3"',
    `printf '${'a'.repeat(40)}!\\n'`,
  ].join('\n'),
  'live.sh': 'echo "marker one"\nwhile [ ! -e "$1" ]; do sleep 0.1; done\necho "marker two"\n',
};

interface SearchResult {
  count: number;
  lines: number[];
  searched: number;
}

describe.each(dialects)('search in a task log on %s', (dialect) => {
  let p: ProjectFixture;
  let taskId: number;
  let lines: string[];

  const search = (query: string, as = t.adminCookie, task = taskId, base = p.base) =>
    t.request('GET', `${base}/tasks/${task}/output/search?${query}`, { as });
  const found = async (query: string): Promise<SearchResult> => {
    const response = await search(query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as SearchResult;
  };
  const seqOf = (text: string) => lines.findIndex((line) => line.includes(text));

  const t = useTestApp(dialect);
  beforeAll(async () => {
    p = await createProjectFixture(t, SCRIPTS);
    const templateId = await p.createTemplate({ playbook: 'log.sh' });
    taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['success', 'error']);
    lines = await p.output(taskId);
  });

  it('counts plain-text matches without regard to case by default, and with it on request', async () => {
    const insensitive = await found('q=error');
    expect(insensitive.count).toBe(3);
    expect(insensitive.lines).toEqual([seqOf('disk full'), seqOf('red alert'), seqOf('lower case')]);
    expect(insensitive.searched).toBe(lines.length);
    const sensitive = await found('q=error&case=true');
    expect(sensitive).toMatchObject({ count: 1, lines: [seqOf('lower case')] });
    expect((await found('q=ERROR&case=1')).lines).toEqual([seqOf('red alert')]);
  });

  it('matches the text as shown, without colour codes, and takes regular-expression characters literally unless asked', async () => {
    expect((await found(`q=${encodeURIComponent('ERROR red')}`)).count).toBe(1);
    expect((await found(`q=${encodeURIComponent('[31m')}`)).count).toBe(0);
    expect((await found(`q=${encodeURIComponent('1.2.3')}`)).lines).toEqual([seqOf('version')]);
    expect((await found(`q=${encodeURIComponent('1.2')}&regex=false`)).count).toBe(1);
  });

  it('runs regular expressions, case sensitive or not', async () => {
    const steps = await found(`q=${encodeURIComponent('^step \\d*5 ok\\.$')}&regex=true`);
    expect(steps.count).toBe(30);
    expect((await found(`q=${encodeURIComponent('1.2.3')}&regex=true`)).count).toBe(1);
    expect((await found(`q=${encodeURIComponent('1.2.3')}&regex=true`)).lines).toEqual([seqOf('version')]);
    expect((await found(`q=${encodeURIComponent('1x2y3|^error:')}&regex=true`)).count).toBe(2);
    expect((await found(`q=${encodeURIComponent('1x2y3|^error:')}&regex=true&case=true`)).count).toBe(1);
  });

  it('pages the matching lines after a seq while the count stays the total', async () => {
    const first = await found('q=ok.&limit=100');
    expect(first.count).toBe(300);
    expect(first.lines).toHaveLength(100);
    const second = await found(`q=ok.&limit=100&after=${first.lines.at(-1)}`);
    expect(second.count).toBe(300);
    expect(second.lines[0]).toBe((first.lines.at(-1) ?? 0) + 1);
    expect(second.lines).toHaveLength(100);
    const rest = await found(`q=ok.&limit=1000&after=${second.lines.at(-1)}`);
    expect(rest.lines).toHaveLength(100);
    expect([...first.lines, ...second.lines, ...rest.lines]).toEqual(
      lines.flatMap((line, seq) => (line.toLowerCase().includes('ok.') ? [seq] : [])),
    );
  });

  it('answers a pattern that backtracks catastrophically with a 400 within its budget, and keeps serving meanwhile', async () => {
    const started = Date.now();
    const slow = search(`q=${encodeURIComponent('^(a+)+$')}&regex=true`);
    // The match runs off the event loop: other requests are answered while it spins.
    const meanwhile = await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie });
    expect(meanwhile.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    const response = await slow;
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'The search took too long; use a simpler regular expression' });
    expect(Date.now() - started).toBeLessThan(8000);
    // The next search runs normally.
    expect((await found('q=disk')).count).toBe(1);
  });

  it('lets one user run a few searches at once and answers one more with a 429 and Retry-After', async () => {
    const slow = () => search(`q=${encodeURIComponent('^(a+)+$')}&regex=true`);
    const running = Array.from({ length: LOG_SEARCH_LIMITS.maxPerUser }, slow);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const refused = await search('q=disk');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect((refused.body as { error: string }).error).toMatch(/too many log searches/i);
    expect((await Promise.all(running)).map((response) => response.status)).toEqual(running.map(() => 400));
    expect((await found('q=disk')).count).toBe(1);
  });

  it('reads the log in steps bounded in characters as well as lines, and still counts every match', async () => {
    const { db } = t.runtime.connection;
    const repository = createTaskOutputRepository(db, dialect);
    const step = { lines: 50_000, chars: 100 };
    const stepChars: number[] = [];
    const logSearch = createTaskLogSearch({
      readLines: async (task, afterSeq, bound) => {
        const rows = await repository.listText(task, afterSeq, bound);
        if (rows.length > 1) stepChars.push(rows.reduce((sum, row) => sum + row.output.length, 0));
        return rows;
      },
      matcher: createLogMatcher({ budgetMs: 3000, maxConcurrent: 1, maxPerUser: 1 }),
      step,
    });
    const result = await logSearch.search(taskId, { q: 'ok.', case: false, regex: false }, 1);
    expect(result).toMatchObject({ count: 300, searched: lines.length });
    expect(stepChars.length).toBeGreaterThan(10);
    expect(Math.max(...stepChars)).toBeLessThanOrEqual(step.chars);
    // A line longer than the bound is still read, alone.
    const long = await repository.listText(taskId, seqOf('a'.repeat(40)) - 1, { lines: 10, chars: 5 });
    expect(long.map((row) => row.seq)).toEqual([seqOf('a'.repeat(40))]);
  });

  it('refuses bad input with a 400 naming the problem', async () => {
    const cases: [string, RegExp][] = [
      [`q=${encodeURIComponent('(unclosed')}&regex=true`, /^Invalid regular expression/],
      [`q=${encodeURIComponent('[z-a]')}&regex=1`, /^Invalid regular expression/],
      ['q=', /Search text is required/],
      ['', /Search text is required/],
      [`q=${'x'.repeat(501)}`, /at most 500 characters/],
      ['q=a&case=maybe', /case must be true or false/],
      ['q=a&regex=yes', /regex must be true or false/],
      ['q=a&limit=0', /Invalid limit/],
      ['q=a&limit=1001', /Invalid limit/],
      ['q=a&after=-1', /Invalid after/],
      [`q=a&after=${2 ** 31}`, /Invalid after/],
    ];
    for (const [query, message] of cases) {
      const response = await search(query);
      expect(response.status, query).toBe(400);
      expect((response.body as { error: string }).error, query).toMatch(message);
    }
    // The plain text "(unclosed" is just text.
    expect((await found(`q=${encodeURIComponent('(unclosed')}`)).count).toBe(0);
  });

  it('answers 404 for another project’s task, an unknown task and a non-member, 400 for an id out of range', async () => {
    const other = await createProjectFixture(t, SCRIPTS);
    expect((await search('q=a', t.adminCookie, taskId, other.base)).status).toBe(404);
    expect((await search('q=a', t.adminCookie, 2_147_483_647)).status).toBe(404);
    expect((await search('q=a', t.adminCookie, 2 ** 31)).status).toBe(400);
    const stranger = await t.createUser(`stranger-${dialect}`);
    expect((await search('q=a', stranger.cookie)).status).toBe(404);
    expect((await t.request('GET', `${p.base}/tasks/${taskId}/output/search?q=a`)).status).toBe(401);
  });

  it('searches a running task up to its newest stored line, and finds the lines it writes later', async () => {
    const go = path.join(mkdtempSync(path.join(os.tmpdir(), 'gantry-search-')), 'go');
    const templateId = await p.createTemplate({ playbook: 'live.sh', arguments: JSON.stringify([go]) });
    const liveId = await p.runTask(templateId);
    const deadline = Date.now() + 20_000;
    let result = { count: 0 } as SearchResult;
    while (result.count === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      result = (await search('q=marker', t.adminCookie, liveId)).body as SearchResult;
    }
    expect(result.count).toBe(1);
    expect((await t.request('GET', `${p.base}/tasks/${liveId}`, { as: t.adminCookie })).body).toMatchObject({
      status: 'running',
    });
    writeFileSync(go, '');
    await p.waitForStatus(liveId, ['success', 'error']);
    expect(((await search('q=marker', t.adminCookie, liveId)).body as SearchResult).count).toBe(2);
  });
});
