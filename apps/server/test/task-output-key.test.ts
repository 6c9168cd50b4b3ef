import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateUpTo } from '../src/db/migrate.ts';
import { createTaskOutputRepository } from '../src/modules/tasks/task-output.repository.ts';
import { withStoreMigratedUpTo } from './migration-fixture.ts';
import { createProjectFixture, insertTaskRow, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('task log lines keyed by task and number on %s', (dialect) => {
  let t: TestApp;
  let p: ProjectFixture;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    p = await createProjectFixture(t, { 'noop.sh': 'true\n' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const time = new Date().toISOString();
  const lines = (taskId: number, count: number) =>
    Array.from({ length: count }, (_, seq) => ({ task_id: taskId, seq, time, output: `line ${seq}` }));
  const storedLines = async (taskId: number) =>
    Number(
      (
        await t.runtime.connection.db
          .selectFrom('task_output')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('task_id', '=', taskId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const newTask = async (projectId = p.projectId, templateId?: number) =>
    insertTaskRow(t, {
      project_id: projectId,
      template_id: templateId ?? (await p.createTemplate({ playbook: 'noop.sh' })),
      status: 'success',
    });

  it('a deleted task takes its lines with it, deleted alone or with its project', async () => {
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const alone = await newTask();
    const kept = await newTask();
    await repository.storeNumbered(lines(alone, 2500), alone, 2500);
    await repository.storeNumbered(lines(kept, 3), kept, 3);
    await t.runtime.connection.db.deleteFrom('task').where('id', '=', alone).execute();
    expect(await storedLines(alone)).toBe(0);
    expect(await storedLines(kept)).toBe(3);

    const other = await createProjectFixture(t, { 'noop.sh': 'true\n' });
    const withProject = await newTask(other.projectId, await other.createTemplate({ playbook: 'noop.sh' }));
    await repository.storeNumbered(lines(withProject, 10), withProject, 10);
    expect((await t.request('DELETE', `/api/project/${other.projectId}`, { as: t.adminCookie })).status).toBe(204);
    expect(await storedLines(withProject)).toBe(0);
    expect(await storedLines(kept)).toBe(3);
  });

  it('stores no lines for a task that is gone', async () => {
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const gone = await newTask();
    await t.runtime.connection.db.deleteFrom('task').where('id', '=', gone).execute();
    await repository.storeNumbered(lines(gone, 5), gone, 5);
    expect(await repository.append(gone, [{ time, output: 'late' }])).toBeUndefined();
    expect(await storedLines(gone)).toBe(0);
  });

  it('refuses a line number twice in one task', async () => {
    const repository = createTaskOutputRepository(t.runtime.connection.db, dialect);
    const taskId = await newTask();
    await repository.storeNumbered(lines(taskId, 2), taskId, 2);
    await expect(repository.storeNumbered(lines(taskId, 1), taskId, 3)).rejects.toThrow();
    expect(await storedLines(taskId)).toBe(2);
  });
});

describe.each(dialects)('migration 0017 on a %s store that holds lines', (dialect) => {
  it('keeps every line, in order, and their key refuses a duplicate', async () => {
    await withStoreMigratedUpTo(dialect, '0016-workflow-runs', async (db) => {
      // Lines of tasks that are not there: the foreign key is set aside on the one connection.
      if (dialect === 'sqlite') await sql`pragma foreign_keys = off`.execute(db);
      if (dialect === 'mysql') await sql`set foreign_key_checks = 0`.execute(db);
      if (dialect === 'postgres') await sql`set session_replication_role = replica`.execute(db);
      const rows = [7, 3].flatMap((taskId) =>
        Array.from({ length: 1200 }, (_, seq) => ({
          task_id: taskId,
          seq,
          time: '2026-01-01T00:00:00.000Z',
          output: `${taskId}:${seq}`,
        })),
      );
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insertInto('task_output')
          .values(rows.slice(i, i + 500))
          .execute();
      // Up to 0017 only: later migrations add foreign keys, which MariaDB refuses while checks are off.
      await migrateUpTo(db, dialect, '0017-task-output-key');
      const after = await db.selectFrom('task_output').selectAll().orderBy('task_id').orderBy('seq').execute();
      expect(after).toEqual([...rows.slice(1200), ...rows.slice(0, 1200)]);
      // The key alone refuses it: the foreign key is still set aside.
      await expect(
        sql`insert into task_output (task_id, seq, time, output) values (7, 5, 'x', 'again')`.execute(db),
      ).rejects.toThrow();
    });
  });
});
