import { sql, type Insertable } from 'kysely';
import { beforeAll, expect } from 'vitest';
import { createGitRepository } from '../../../packages/runner/test/support/git-fixture.ts';
import { insertRow } from '../src/db/insert.ts';
import type { TaskTable } from '../src/modules/tasks/tasks.table.ts';
import type { TestApp } from './test-app.ts';

export { createGitRepository };

export interface ProjectFixture {
  projectId: number;
  base: string;
  noneKeyId: number;
  emptyEnvironmentId: number;
  repositoryId: number;
  repoDir: string;
  /** Commits more files to the project's repository; returns the commit hash. */
  commit(files: Record<string, string>, message: string): string;
  /** Creates a template in the project and returns its id. */
  createTemplate(fields: Record<string, unknown>): Promise<number>;
  /** A template's body as createTemplate sends it: a bash template of the project's repository, `fields` over it. */
  templateBody(fields: Record<string, unknown>): Record<string, unknown>;
  /** Creates a static inventory of this machine (ansible connects locally) and returns its id. */
  createLocalInventory(name?: string): Promise<number>;
  /** Creates a variable group holding `secrets` (JSON variables `json`, no environment) and returns its id. */
  createVariableGroup(name: string, secrets: NewSecret[], json?: string): Promise<number>;
  /** Creates a login/password key (a become key, a vault or webhook password) and returns its id. */
  createLoginPasswordKey(name: string, login: string, password: string): Promise<number>;
  /** Starts a task and returns its id. */
  runTask(templateId: number, fields?: Record<string, unknown>, as?: string): Promise<number>;
  /** Waits until the task reaches one of the statuses and returns it. */
  waitForStatus(taskId: number, statuses: string[], timeoutMs?: number): Promise<Record<string, unknown>>;
  output(taskId: number): Promise<string[]>;
}

/** A secret of a new variable group: an ansible variable or an environment variable. */
interface NewSecret {
  type: 'var' | 'env';
  name: string;
  secret: string;
}

/**
 * The project of a describe block (see createProjectFixture), made by a beforeAll registered here: call it
 * after useTestApp. As with useTestApp, the returned object is filled in then, so hooks registered after
 * this call and the tests use it as it is.
 */
export function useProjectFixture(t: TestApp, files: Record<string, string>): ProjectFixture {
  const fixture = {} as ProjectFixture;
  beforeAll(async () => {
    Object.assign(fixture, await createProjectFixture(t, files));
  });
  return fixture;
}

/** A project with a git repository of the given files, ready to run templates from it. */
export async function createProjectFixture(t: TestApp, files: Record<string, string>): Promise<ProjectFixture> {
  const repo = createGitRepository(files);
  const project = await t.request('POST', '/api/projects', {
    as: t.adminCookie,
    body: { name: `Tasks ${Math.random().toString(36).slice(2, 7)}` },
  });
  const projectId = (project.body as { id: number }).id;
  const base = `/api/project/${projectId}`;
  const keys = (await t.request('GET', `${base}/keys`, { as: t.adminCookie })).body as { id: number }[];
  const environments = (await t.request('GET', `${base}/environment`, { as: t.adminCookie })).body as { id: number }[];
  const noneKeyId = keys[0]?.id ?? 0;
  const emptyEnvironmentId = environments[0]?.id ?? 0;
  const repository = await t.request('POST', `${base}/repositories`, {
    as: t.adminCookie,
    body: { name: 'scripts', git_url: repo.url, git_branch: 'main', ssh_key_id: noneKeyId },
  });
  const repositoryId = (repository.body as { id: number }).id;

  async function create(path: string, body: Record<string, unknown>): Promise<number> {
    const response = await t.request('POST', `${base}/${path}`, { as: t.adminCookie, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return (response.body as { id: number }).id;
  }

  function templateBody(fields: Record<string, unknown>): Record<string, unknown> {
    return {
      name: `T${Math.random().toString(36).slice(2, 7)}`,
      app: 'bash',
      repository_id: repositoryId,
      environment_id: emptyEnvironmentId,
      ...fields,
    };
  }

  return {
    projectId,
    base,
    noneKeyId,
    emptyEnvironmentId,
    repositoryId,
    repoDir: repo.dir,
    commit: (files, message) => repo.commit(files, message),
    templateBody,
    createTemplate: (fields) => create('templates', templateBody(fields)),
    createLocalInventory: (name = 'local') =>
      create('inventory', {
        name,
        type: 'static',
        inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3',
        ssh_key_id: noneKeyId,
      }),
    createVariableGroup: (name, secrets, json = '{}') =>
      create('environment', {
        name,
        json,
        env: '{}',
        secrets: secrets.map((secret) => ({ operation: 'create', ...secret })),
      }),
    createLoginPasswordKey: (name, login, password) =>
      create('keys', { name, type: 'login_password', login_password: { login, password } }),
    async runTask(templateId, fields = {}, as = t.adminCookie) {
      const response = await t.request('POST', `${base}/tasks`, { as, body: { template_id: templateId, ...fields } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return (response.body as { id: number }).id;
    },
    async waitForStatus(taskId, statuses, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const task = (await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as Record<
          string,
          unknown
        >;
        if (statuses.includes(String(task.status))) return task;
        if (Date.now() > deadline)
          throw new Error(`Task ${taskId} is ${String(task.status)}, expected ${statuses.join('|')}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async output(taskId) {
      const records = (await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as {
        output: string;
        seq: number;
      }[];
      expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i));
      return records.map((r) => r.output);
    },
  };
}

/**
 * Inserts a task row straight into the store, as another (perhaps dead) process left it, without the
 * engine knowing; `fields` override the defaults of a task started now. Returns its id.
 */
export async function insertTaskRow(
  t: TestApp,
  fields: Pick<Insertable<TaskTable>, 'project_id' | 'template_id' | 'status'> & Partial<Insertable<TaskTable>>,
): Promise<number> {
  const { db, dialect } = t.runtime.connection;
  const now = new Date().toISOString();
  return insertRow(db, dialect, 'task', {
    message: '',
    commit_message: '',
    created: now,
    start: now,
    environment: '{}',
    params: '{}',
    playbook: '',
    output_lines: 0,
    ...fields,
  });
}

/** How many rows a task has in the search index across logs (migration 0020), read from the store's own index table. */
export async function countLogIndexRows(t: TestApp, taskId: number): Promise<number> {
  const { db, dialect } = t.runtime.connection;
  const query =
    dialect === 'sqlite'
      ? sql<{
          n: number;
        }>`select count(*) as n from task_log_fts where rowid >= (${taskId} << 32) and rowid < ((${taskId} + 1) << 32)`
      : sql<{ n: number }>`select count(*) as n from task_log_index where task_id = ${taskId}`;
  return Number((await query.execute(db)).rows[0]?.n);
}

/** A user signed in: its id, session cookie and name. */
export interface Member {
  id: number;
  cookie: string;
  username: string;
}

/**
 * Creates a user named `${prefix}-${key}` for each key of `roles` and adds it to the project at `base`
 * (its API path) with that role; returns them by key.
 */
export async function addProjectMembers<K extends string>(
  t: TestApp,
  base: string,
  prefix: string,
  roles: Record<K, string>,
): Promise<Record<K, Member>> {
  const members = {} as Record<K, Member>;
  for (const [key, role] of Object.entries(roles) as [K, string][]) {
    const username = `${prefix}-${key}`;
    members[key] = { ...(await t.createUser(username)), username };
    await addMember(t, base, members[key].id, role);
  }
  return members;
}

/** Adds the user to the project at `base` (its API path) with `role`, as an admin does. */
export async function addMember(t: TestApp, base: string, userId: number, role: string): Promise<void> {
  const added = await t.request('POST', `${base}/users`, { as: t.adminCookie, body: { user_id: userId, role } });
  expect(added.status, `${role}: ${added.text}`).toBe(204);
}
