import { beforeAll, describe, expect, it } from 'vitest';
import { parentRows, projectRows } from '../src/db/project-rows.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('project-scoped rows on %s', (dialect) => {
  const t = useTestApp(dialect);
  let projectA: number;
  let projectB: number;

  async function createProject(name: string): Promise<number> {
    const res = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name } });
    expect(res.status).toBe(201);
    return (res.body as { id: number }).id;
  }

  beforeAll(async () => {
    projectA = await createProject('A');
    projectB = await createProject('B');
  });

  const views = () => projectRows(t.runtime.connection.db, dialect, 'view');

  it('inserts a row and finds it by id only within its own project', async () => {
    const id = await views().insert({ project_id: projectA, title: 'mine', position: 0 });
    expect(await views().find(projectA, id)).toEqual({ id, project_id: projectA, title: 'mine', position: 0 });
    expect(await views().find(projectB, id)).toBeUndefined();
  });

  it("lists only the project's own rows, ordered by the column then by id", async () => {
    const first = await views().insert({ project_id: projectB, title: 'b', position: 2 });
    const second = await views().insert({ project_id: projectB, title: 'a', position: 1 });
    const tie = await views().insert({ project_id: projectB, title: 'c', position: 1 });
    expect((await views().list(projectB, 'position')).map((v) => v.id)).toEqual([second, tie, first]);
    expect((await views().list(projectB, 'title', 'desc')).map((v) => v.title)).toEqual(['c', 'b', 'a']);
    expect((await views().list(projectA, 'position')).every((v) => v.project_id === projectA)).toBe(true);
  });

  it("cannot change or delete another project's row through that project's id", async () => {
    const id = await views().insert({ project_id: projectA, title: 'kept', position: 5 });
    await views().update(projectB, id, { title: 'taken' });
    await views().delete(projectB, id);
    expect(await views().find(projectA, id)).toEqual({ id, project_id: projectA, title: 'kept', position: 5 });

    await views().update(projectA, id, { title: 'renamed' });
    expect((await views().find(projectA, id))?.title).toBe('renamed');
    await views().delete(projectA, id);
    expect(await views().find(projectA, id)).toBeUndefined();
  });

  it('scopes every table it serves the same way', async () => {
    const keys = projectRows(t.runtime.connection.db, dialect, 'access_key');
    const id = await keys.insert({
      project_id: projectA,
      name: 'k',
      type: 'none',
      secret: null,
      created: new Date().toISOString(),
    });
    expect(await keys.find(projectB, id)).toBeUndefined();
    expect((await keys.list(projectB, 'name')).map((k) => k.project_id)).not.toContain(projectA);
    await keys.delete(projectB, id);
    expect((await keys.find(projectA, id))?.name).toBe('k');
  });
  it("reads, changes and deletes a parent's rows only through its project and its parent", async () => {
    const db = t.runtime.connection.db;
    const created = new Date().toISOString();
    const groups = projectRows(db, dialect, 'environment');
    const group = (projectId: number, name: string) =>
      groups.insert({ project_id: projectId, name, json: '{}', env: '{}', password: null, created });
    const mine = await group(projectA, 'mine');
    const sibling = await group(projectA, 'sibling');
    const secrets = parentRows(db, dialect, 'environment_secret', 'environment_id', ['type', 'name']);
    const secret = (name: string, type: 'var' | 'env') =>
      secrets.insert({ project_id: projectA, environment_id: mine, type, name, secret: 'sealed' });
    const b = await secret('B', 'var');
    const a = await secret('A', 'var');
    const e = await secret('A', 'env');
    expect((await secrets.list(projectA, mine)).map((row) => row.id)).toEqual([e, a, b]);
    expect((await secrets.list(projectA, mine, 'desc')).map((row) => row.id)).toEqual([b, a, e]);
    expect(await secrets.list(projectA, sibling)).toEqual([]);
    expect(await secrets.list(projectB, mine)).toEqual([]);

    for (const [projectId, parentId] of [
      [projectB, mine],
      [projectA, sibling],
    ] as const) {
      expect(await secrets.find(projectId, parentId, a)).toBeUndefined();
      await secrets.update(projectId, parentId, a, { secret: 'taken' });
      await secrets.delete(projectId, parentId, a);
    }
    expect((await secrets.find(projectA, mine, a))?.secret).toBe('sealed');

    await secrets.update(projectA, mine, a, { secret: 'resealed' });
    expect((await secrets.find(projectA, mine, a))?.secret).toBe('resealed');
    await secrets.delete(projectA, mine, a);
    expect(await secrets.find(projectA, mine, a)).toBeUndefined();
  });

  it('takes an update with nothing to set as done, for project rows and the rows of a parent', async () => {
    const db = t.runtime.connection.db;
    const id = await views().insert({ project_id: projectA, title: 'unchanged', position: 3 });
    await views().update(projectA, id, {});
    await views().update(projectA, id, { title: undefined });
    expect(await views().find(projectA, id)).toEqual({ id, project_id: projectA, title: 'unchanged', position: 3 });

    const created = new Date().toISOString();
    const group = await projectRows(db, dialect, 'environment').insert({
      project_id: projectA,
      name: 'parent',
      json: '{}',
      env: '{}',
      password: null,
      created,
    });
    const secrets = parentRows(db, dialect, 'environment_secret', 'environment_id', ['type', 'name']);
    const secret = await secrets.insert({
      project_id: projectA,
      environment_id: group,
      type: 'var',
      name: 'S',
      secret: 'sealed',
    });
    await secrets.update(projectA, group, secret, {});
    expect((await secrets.find(projectA, group, secret))?.secret).toBe('sealed');
  });
});
