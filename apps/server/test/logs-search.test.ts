import type { LogsSearchQuery, LogsSearchResult } from '@gantry/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteLogIndexOfTasks } from '../src/db/log-search-index.ts';
import { createTaskLogIndexRepository } from '../src/modules/tasks/task-log-index.repository.ts';
import { createTaskLogIndexer } from '../src/modules/tasks/task-log-indexer.ts';
import { createLogsSearch } from '../src/modules/tasks/logs-search.ts';
import { countLogIndexRows, createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const SECRET = 'Zanzibar-Quokka-9931';

const SCRIPTS = {
  'deploy.sh': [
    'echo "deploying to web01"',
    'echo "step one"',
    'printf "\\033[31mfatal\\033[0m: disk quota exceeded on web01\\n"',
    'echo "step two"',
    'echo "the password is $DB_PASSWORD"',
    'for i in $(seq 1 30); do echo "retry $i: Disk-Quota exceeded again"; done',
  ].join('\n'),
  'build.sh': ['echo "compiling"', 'echo "fatal: disk quota exceeded on build01"', 'exit 1'].join('\n'),
  'other.sh': 'echo "fatal: disk quota exceeded on the other project host"\n',
};

describe.each(dialects)('search across task logs on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  let other: ProjectFixture;
  let deployTemplate: number;
  let buildTemplate: number;
  let deployTask: number;
  let buildTask: number;
  let otherTask: number;
  let runnerId: number;
  let runnerTask: number;

  const search = (query: string, as = t.adminCookie, base = p.base) =>
    t.request('GET', `${base}/logs/search?${query}`, { as });
  const found = async (query: string, base = p.base): Promise<LogsSearchResult> => {
    const response = await search(query, t.adminCookie, base);
    expect(response.status, response.text).toBe(200);
    return response.body as LogsSearchResult;
  };
  const taskIds = (result: LogsSearchResult) => result.tasks.map((task) => task.task_id);

  beforeAll(async () => {
    t.secrets.add(SECRET);
    p = await createProjectFixture(t, SCRIPTS);
    const groupId = await p.createVariableGroup('secrets', [{ type: 'env', name: 'DB_PASSWORD', secret: SECRET }]);
    deployTemplate = await p.createTemplate({ playbook: 'deploy.sh', environment_id: groupId });
    buildTemplate = await p.createTemplate({ playbook: 'build.sh' });
    deployTask = await p.runTask(deployTemplate);
    await p.waitForStatus(deployTask, ['success']);
    buildTask = await p.runTask(buildTemplate);
    await p.waitForStatus(buildTask, ['error']);
    const runner = await t.createUser(`logs-runner-${dialect}`);
    runnerId = runner.id;
    const added = await t.request('POST', `${p.base}/users`, {
      as: t.adminCookie,
      body: { user_id: runner.id, role: 'task_runner' },
    });
    expect(added.status, added.text).toBe(204);
    runnerTask = await p.runTask(buildTemplate, {}, runner.cookie);
    await p.waitForStatus(runnerTask, ['error']);
    other = await createProjectFixture(t, SCRIPTS);
    otherTask = await other.runTask(await other.createTemplate({ playbook: 'other.sh' }));
    await other.waitForStatus(otherTask, ['success']);
    await t.runtime.services.logIndexer.catchUp();
  });

  it('finds the lines of every matching task, newest first, with their context and without colour codes', async () => {
    const result = await found('q=disk%20quota');
    expect(taskIds(result)).toEqual([runnerTask, buildTask, deployTask]);
    expect(result.next_cursor).toBeNull();
    const deploy = result.tasks.find((task) => task.task_id === deployTask);
    const lines = await p.output(deployTask);
    const fatalSeq = lines.findIndex((line) => line.includes('disk quota exceeded on web01'));
    expect(deploy).toMatchObject({ template_id: deployTemplate, status: 'success', more: true });
    const matches = deploy?.lines.filter((line) => line.match) ?? [];
    // Words match whatever separates them: "Disk-Quota" too, case aside.
    expect(matches.map((line) => line.seq)).toEqual([fatalSeq, fatalSeq + 3, fatalSeq + 4, fatalSeq + 5, fatalSeq + 6]);
    expect(matches[0]?.text).toBe('fatal: disk quota exceeded on web01');
    expect(matches[1]?.text).toBe('retry 1: Disk-Quota exceeded again');
    // Two lines of context each side, each line once.
    expect(deploy?.lines.map((line) => line.seq)).toEqual(
      Array.from({ length: 11 }, (_, i) => fatalSeq - 2 + i).filter((seq) => seq >= 0),
    );
    expect(deploy?.lines.find((line) => line.seq === fatalSeq - 1)).toMatchObject({ text: 'step one', match: false });
    const build = result.tasks.find((task) => task.task_id === buildTask);
    expect(build).toMatchObject({ status: 'error', more: false, template_id: buildTemplate });
    expect(build?.lines.filter((line) => line.match).map((line) => line.text)).toEqual([
      'fatal: disk quota exceeded on build01',
    ]);
  });

  it('matches whole words as a phrase, in any case, short words included', async () => {
    expect(taskIds(await found('q=EXCEEDED%20ON%20WEB01'))).toEqual([deployTask]);
    expect(taskIds(await found('q=quota%20disk'))).toEqual([]);
    expect(taskIds(await found('q=exceed'))).toEqual([]);
    expect(taskIds(await found(`q=${encodeURIComponent('fatal: disk')}`))).toEqual([runnerTask, buildTask, deployTask]);
    expect(taskIds(await found('q=the%20other%20project', other.base))).toEqual([otherTask]);
  });

  it('filters by template, status, user and day', async () => {
    expect(taskIds(await found(`q=disk%20quota&template_id=${deployTemplate}`))).toEqual([deployTask]);
    expect(taskIds(await found('q=disk%20quota&status=error'))).toEqual([runnerTask, buildTask]);
    expect(taskIds(await found('q=disk%20quota&status=stopped'))).toEqual([]);
    expect(taskIds(await found(`q=disk%20quota&user_id=${runnerId}`))).toEqual([runnerTask]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(taskIds(await found(`q=disk%20quota&from=${today}&to=${today}`))).toHaveLength(3);
    expect(taskIds(await found(`q=disk%20quota&from=${tomorrow}`))).toEqual([]);
    expect(taskIds(await found(`q=disk%20quota&to=${yesterday}`))).toEqual([]);
  });

  it('pages by task with a cursor', async () => {
    const first = await found('q=disk%20quota&limit=2');
    expect(taskIds(first)).toEqual([runnerTask, buildTask]);
    expect(first.next_cursor).toBe(buildTask);
    const second = await found(`q=disk%20quota&limit=2&cursor=${first.next_cursor}`);
    expect(taskIds(second)).toEqual([deployTask]);
    expect(second.next_cursor).toBeNull();
  });

  const searchWith = (bounds: Parameters<typeof createLogsSearch>[0]['bounds']) =>
    createLogsSearch({ index: createTaskLogIndexRepository(t.runtime.connection.db, dialect), bounds });

  it("goes on below the index's newest matches by walking the project's tasks when those run out", async () => {
    // Two matching lines from the index: the other project's newest line and the runner's; the rest is walked.
    const result = await searchWith({ matchLines: 2 }).search(p.projectId, { q: 'disk quota' });
    expect(taskIds(result)).toEqual([runnerTask, buildTask, deployTask]);
    // The deploy task's own lines are read apart from the bounds: its first matches, not its last.
    expect(result.tasks[2]?.lines.find((line) => line.match)?.text).toBe('fatal: disk quota exceeded on web01');
    expect(result.next_cursor).toBeNull();
    const limited = await searchWith({ matchLines: 2 }).search(p.projectId, { q: 'disk quota', limit: 2 });
    expect(taskIds(limited)).toEqual([runnerTask, buildTask]);
    expect(limited.next_cursor).toBe(buildTask);
  });

  it('walks the tasks alone, with every filter and only the project, when the index would read too much', async () => {
    // indexFirstLines 0: PostgreSQL and MariaDB never ask the text index; SQLite's stops at its first match.
    const walk = searchWith({ matchLines: 1, indexFirstLines: 0 });
    const queries: LogsSearchQuery[] = [
      { q: 'disk quota' },
      { q: 'disk quota', status: 'error' },
      { q: 'disk quota', template_id: deployTemplate },
      { q: 'disk quota', user_id: runnerId },
      { q: 'exceeded on web01' },
      { q: 'the other project' },
      { q: 'quota disk' },
      { q: 'the password is' },
    ];
    for (const query of queries) {
      const walked = await walk.search(p.projectId, query);
      const indexed = await searchWith({}).search(p.projectId, query);
      expect(walked, query.q).toEqual(indexed);
    }
    expect(taskIds(await walk.search(p.projectId, { q: 'disk quota', status: 'error' }))).toEqual([
      runnerTask,
      buildTask,
    ]);
    expect(taskIds(await walk.search(other.projectId, { q: 'disk quota' }))).toEqual([otherTask]);
  });

  it("stops a page's walk at its bound of lines and pages on from the last task it checked", async () => {
    const walk = searchWith({ matchLines: 1, indexFirstLines: 0, walkLines: 1 });
    const first = await walk.search(p.projectId, { q: 'disk quota' });
    expect(taskIds(first)).toEqual([runnerTask]);
    expect(first.next_cursor).toBe(runnerTask);
    const seen = [...taskIds(first)];
    let cursor = first.next_cursor;
    for (let pages = 0; cursor !== null && pages < 10; pages++) {
      const page = await walk.search(p.projectId, { q: 'disk quota', cursor });
      expect(page.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...taskIds(page));
      cursor = page.next_cursor;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual([runnerTask, buildTask, deployTask]);
  });

  it('estimates from the newest index rows how many lines hold a word, on PostgreSQL and MariaDB', async () => {
    const repository = createTaskLogIndexRepository(t.runtime.connection.db, dialect);
    const quota = await repository.estimateLines('disk quota', 10_000);
    const absent = await repository.estimateLines('zyxwvut', 10_000);
    if (dialect === 'sqlite') {
      expect([quota, absent]).toEqual([undefined, undefined]);
      return;
    }
    expect(absent).toBe(0);
    expect(quota).toBeGreaterThanOrEqual(4);
    // The rarest word counts: "web01" is on fewer lines than "quota".
    const web = await repository.estimateLines('quota exceeded on web01', 10_000);
    expect(web).toBeGreaterThan(0);
    expect(web).toBeLessThan(quota ?? 0);
  });

  it("never returns another project's lines", async () => {
    const mine = await found('q=disk%20quota');
    expect(taskIds(mine)).not.toContain(otherTask);
    expect(taskIds(await found('q=other%20project'))).toEqual([]);
    expect(taskIds(await found('q=disk%20quota', other.base))).toEqual([otherTask]);
  });

  it('answers members like the output does: a guest reads, a non-member gets 404, no session 401', async () => {
    const stranger = await t.createUser(`logs-stranger-${dialect}`);
    expect((await search('q=disk%20quota', stranger.cookie)).status).toBe(404);
    const guest = await t.createUser(`logs-guest-${dialect}`);
    expect(
      (await t.request('POST', `${p.base}/users`, { as: t.adminCookie, body: { user_id: guest.id, role: 'guest' } }))
        .status,
    ).toBe(204);
    const answer = await search('q=disk%20quota', guest.cookie);
    expect(answer.status).toBe(200);
    expect(taskIds(answer.body as LogsSearchResult)).toEqual([runnerTask, buildTask, deployTask]);
    expect((await t.request('GET', `${p.base}/logs/search?q=disk`)).status).toBe(401);
  });

  it('indexes the masked text: a secret is never found, its line shows the mask', async () => {
    for (const word of ['Zanzibar', 'Quokka', '9931', 'Zanzibar-Quokka-9931'])
      expect(taskIds(await found(`q=${encodeURIComponent(word)}`))).toEqual([]);
    const result = await found('q=the%20password%20is');
    expect(taskIds(result)).toEqual([deployTask]);
    const line = result.tasks[0]?.lines.find((l) => l.match);
    expect(line?.text).toMatch(/^the password is \*+$/);
  });

  it('refuses bad input with a 400 and a message', async () => {
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      `q=${encodeURIComponent('>>> ---')}`,
      'q=ab%20cd',
      `q=${'x'.repeat(501)}`,
      `q=${Array.from({ length: 17 }, () => 'word').join('%20')}`,
      'q=disk&template_id=0',
      'q=disk&template_id=abc',
      'q=disk&template_id=99999999999',
      'q=disk&user_id=-1',
      'q=disk&status=running',
      'q=disk&status=nope',
      'q=disk&from=2024-13-01',
      'q=disk&from=2024-02-30x',
      'q=disk&from=2026-02-31',
      'q=disk&to=2025-02-29',
      'q=disk&from=2024-03-02&to=2024-03-01',
      'q=disk&limit=0',
      'q=disk&limit=51',
      'q=disk&cursor=0',
      'q=disk&cursor=1.5',
    ]) {
      const response = await search(query);
      expect(response.status, `${query}: ${response.text}`).toBe(400);
      expect(typeof (response.body as { error?: unknown }).error, query).toBe('string');
    }
  });

  it('indexes each line once when several indexers catch up at the same time, short logs sharing transactions', async () => {
    const { db } = t.runtime.connection;
    const shortTasks = [deployTask, buildTask, runnerTask];
    const expected = new Map<number, number>();
    for (const id of shortTasks) {
      const lines = (await p.output(id)).filter((line) => /[\p{L}\p{N}]/u.test(line)).length;
      expect(await countLogIndexRows(t, id)).toBe(lines);
      expected.set(id, lines);
    }
    const repository = createTaskLogIndexRepository(db, dialect);
    await deleteLogIndexOfTasks(db, dialect, shortTasks);
    await db.updateTable('task').set({ log_indexed: 0 }).where('id', 'in', shortTasks).execute();
    expect(taskIds(await found('q=disk%20quota'))).toEqual([]);
    const failures: unknown[] = [];
    const logger = { error: (...args: unknown[]) => void failures.push(args) };
    await Promise.all([
      createTaskLogIndexer({ index: repository, logger }).catchUp(),
      createTaskLogIndexer({ index: repository, logger }).catchUp(),
    ]);
    expect(failures).toEqual([]);
    for (const id of shortTasks) expect(await countLogIndexRows(t, id), `task ${id}`).toBe(expected.get(id));
    expect(taskIds(await found('q=on%20web01'))).toEqual([deployTask]);
    expect(taskIds(await found('q=disk%20quota'))).toEqual([runnerTask, buildTask, deployTask]);
  });

  it('indexes the tasks that finish together, each line once and every task to its end', async () => {
    const { db } = t.runtime.connection;
    const repository = createTaskLogIndexRepository(db, dialect);
    const failures: unknown[] = [];
    const indexer = createTaskLogIndexer({
      index: repository,
      logger: { error: (...a: unknown[]) => failures.push(a) },
    });
    await deleteLogIndexOfTasks(db, dialect, [deployTask, buildTask]);
    await db.updateTable('task').set({ log_indexed: 0 }).where('id', 'in', [deployTask, buildTask]).execute();
    indexer.add(deployTask);
    indexer.add(buildTask);
    await indexer.catchUp();
    expect(failures).toEqual([]);
    expect(taskIds(await found('q=disk%20quota'))).toEqual([runnerTask, buildTask, deployTask]);
    const indexed = await db
      .selectFrom('task')
      .select(['id', 'log_indexed', 'output_lines'])
      .where('id', 'in', [deployTask, buildTask])
      .execute();
    for (const task of indexed) expect(task.log_indexed).toBe(task.output_lines);
  });

  it('takes a deleted task out of the index, and a deleted project with its tasks', async () => {
    const doomed = await p.runTask(buildTemplate);
    await p.waitForStatus(doomed, ['error']);
    await t.runtime.services.logIndexer.catchUp();
    expect(taskIds(await found('q=compiling'))[0]).toBe(doomed);
    expect(await countLogIndexRows(t, doomed)).toBeGreaterThan(0);
    expect((await t.request('DELETE', `${p.base}/tasks/${doomed}`, { as: t.adminCookie })).status).toBe(204);
    expect(await countLogIndexRows(t, doomed)).toBe(0);
    expect(taskIds(await found('q=compiling'))).not.toContain(doomed);

    expect(await countLogIndexRows(t, otherTask)).toBeGreaterThan(0);
    expect((await t.request('DELETE', other.base, { as: t.adminCookie })).status).toBe(204);
    expect(await countLogIndexRows(t, otherTask)).toBe(0);
  });
});
