import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { COPIED_TABLES, DERIVED_TABLES, INSTALLATION_TABLES } from '../src/db/store-copy.ts';
import type { Db } from '../src/db/database.ts';
import { createProjectFixture } from './task-fixture.ts';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './test-app.ts';
import { createTestDatabase, listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const pairs = dialects.flatMap((from) => dialects.filter((to) => to !== from).map((to) => [from, to] as const));
const KEY_PASSWORD = 'copied-Key-Secret-7';

/**
 * Every row of every copied table, in key order, with numbers as numbers; without `task.log_indexed`, which the
 * copy sets to 0 (the target builds its own search index).
 */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const { table, key } of COPIED_TABLES) {
    const rows = await db
      .selectFrom(table)
      .selectAll()
      .orderBy(key as never)
      .execute();
    result[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([k]) => table !== 'task' || k !== 'log_indexed')
          .map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
      ),
    );
  }
  return result;
}

/** A source installation with a bit of everything: users, a project with secrets, templates naming each other, a finished task with its log, a schedule, an integration. */
async function fillSource(t: TestApp): Promise<{ projectId: number; keyId: number }> {
  await t.createUser('copied-user');
  const p = await createProjectFixture(t, { 'hello.sh': 'echo copied line one\necho copied line two\n' });
  const key = await t.request('POST', `${p.base}/keys`, {
    as: t.adminCookie,
    body: {
      name: 'deploy login',
      type: 'login_password',
      login_password: { login: 'deployer', password: KEY_PASSWORD },
    },
  });
  expect(key.status).toBe(201);
  t.secrets.add(KEY_PASSWORD);
  const first = await p.createTemplate({ playbook: 'hello.sh', name: 'First' });
  const build = await p.createTemplate({ playbook: 'hello.sh', name: 'Build', type: 'build', start_version: '1.0.0' });
  // The first template names a later one: the copy must write that reference after both exist.
  const linked = await t.request('PUT', `${p.base}/templates/${first}`, {
    as: t.adminCookie,
    body: p.templateBody({ id: first, name: 'First', playbook: 'hello.sh', type: 'deploy', build_template_id: build }),
  });
  expect(linked.status, linked.text).toBe(204);
  const taskId = await p.runTask(build);
  await p.waitForStatus(taskId, ['success']);
  expect(
    (
      await t.request('POST', `${p.base}/schedules`, {
        as: t.adminCookie,
        body: { name: 'Nightly', template_id: build, cron_format: '0 3 * * *', active: true },
      })
    ).status,
  ).toBe(201);
  const integration = await t.request('POST', `${p.base}/integrations`, {
    as: t.adminCookie,
    body: { name: 'Hook', template_id: build },
  });
  expect(integration.status).toBe(201);
  return { projectId: p.projectId, keyId: (key.body as { id: number }).id };
}

describe('every table is either copied or belongs to the running installation', () => {
  it('leaves no table of the store out of the copy plan', async () => {
    const t = await createTestApp('sqlite');
    try {
      const tables = (await t.runtime.connection.db.introspection.getTables())
        .map((table) => table.name)
        .filter((name) => !name.startsWith('gantry_migration'));
      expect([...tables].sort()).toEqual(
        [...COPIED_TABLES.map((c) => c.table), ...INSTALLATION_TABLES, ...DERIVED_TABLES]
          .filter((name) => name !== 'task_log_index')
          .sort(),
      );
    } finally {
      await t.close();
    }
  });
});

describe.each(pairs)('gantry store copy from %s to %s', (from, to) => {
  it('copies every row, keeps secrets readable with the same key, and the target works as the installation', async () => {
    const source = await createTestApp(from);
    const target = await createTestDatabase(to);
    let copy: TestApp | undefined;
    try {
      const { projectId, keyId } = await fillSource(source);
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['store', 'copy', '--from', source.runtime.config.db_url, '--to', target.url], {
        print: (l) => out.push(l),
        printError: (l) => err.push(l),
        env: {},
      });
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out.at(-1)).toMatch(/^The copy is complete\./);

      const copied = connectDatabase(to, target.url);
      try {
        expect(await snapshot(copied.db)).toEqual(await snapshot(source.runtime.connection.db));
      } finally {
        await copied.db.destroy();
      }
      copy = await createTestApp(to, {
        db_url: target.url,
        access_key_encryption: source.runtime.config.access_key_encryption,
      });
      // The copy is a working installation: same sign-in, readable secrets, fresh ids after the copied ones.
      expect(await copy.runtime.services.keys.getMaterial(projectId, keyId)).toMatchObject({
        type: 'login_password',
        password: KEY_PASSWORD,
      });
      const output = (await copy.request('GET', `/api/project/${projectId}/tasks/last`, { as: copy.adminCookie }))
        .body as { id: number }[];
      const lines = (
        await copy.request('GET', `/api/project/${projectId}/tasks/${output[0]?.id}/output`, { as: copy.adminCookie })
      ).body as { output: string }[];
      expect(lines.map((l) => l.output)).toEqual(expect.arrayContaining(['copied line one', 'copied line two']));
      // The copy indexes the copied logs for search across tasks itself.
      await copy.runtime.services.logIndexer.catchUp();
      const found = await copy.request('GET', `/api/project/${projectId}/logs/search?q=copied%20line%20two`, {
        as: copy.adminCookie,
      });
      expect((found.body as { tasks: { task_id: number }[] }).tasks.map((task) => task.task_id)).toEqual([
        output[0]?.id,
      ]);
      const created = await copy.request('POST', '/api/projects', {
        as: copy.adminCookie,
        body: { name: 'After the copy' },
      });
      expect(created.status).toBe(201);
      expect((created.body as { id: number }).id).toBeGreaterThan(projectId);
      expect(await copy.login('admin', ADMIN_PASSWORD)).toMatch(/^gantry_session=/);
    } finally {
      await copy?.close();
      await source.close();
      await target.drop();
    }
  });

  it('refuses a target that holds data, and changes nothing there', async () => {
    const source = await createTestApp(from);
    const occupied = await createTestApp(to);
    try {
      const before = await snapshot(occupied.runtime.connection.db);
      const err: string[] = [];
      const code = await runCli(
        ['store', 'copy', '--from', source.runtime.config.db_url, '--to', occupied.runtime.config.db_url],
        { print: () => undefined, printError: (l) => err.push(l), env: {} },
      );
      expect(code).toBe(1);
      expect(err).toEqual([
        expect.stringMatching(
          /^The target store is not empty \(table users has 1 row\(s\)\): copy into an empty database$/,
        ),
      ]);
      expect(await snapshot(occupied.runtime.connection.db)).toEqual(before);
    } finally {
      await occupied.close();
      await source.close();
    }
  });
});

describe('gantry store copy: impossible requests', () => {
  it('names a missing source file, an unreachable target and a copy onto itself in one line', async () => {
    const err: string[] = [];
    const run = (...argv: string[]) =>
      runCli(['store', 'copy', ...argv], { print: () => undefined, printError: (l) => err.push(l), env: {} });
    expect(await run('--from', '/nonexistent/gantry.sqlite', '--to', '/tmp/x.sqlite')).toBe(1);
    expect(err.at(-1)).toBe('The source SQLite file /nonexistent/gantry.sqlite does not exist');
    expect(await run('--from', '/tmp/same.sqlite', '--to', '/tmp/same.sqlite')).toBe(1);
    expect(err.at(-1)).toBe('The source and the target are the same store');
    const source = await createTestApp('sqlite');
    try {
      expect(
        await run('--from', source.runtime.config.db_url, '--to', 'postgres://gantry:pw-Hidden-1@127.0.0.1:1/gantry'),
      ).toBe(1);
      expect(err.at(-1)).toMatch(
        /^Cannot open the postgres store at postgres:\/\/gantry:\*\*\*@127\.0\.0\.1:1\/gantry: .*ECONNREFUSED/,
      );
    } finally {
      await source.close();
    }
  });
});
