import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectIds } from './openapi-operations.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

type Role = 'admin' | 'owner' | 'manager' | 'task_runner' | 'guest' | 'non_member' | 'anonymous';
const ROLES: Role[] = ['admin', 'owner', 'manager', 'task_runner', 'guest', 'non_member', 'anonymous'];

interface Fixture extends Pick<
  ProjectIds,
  'projectId' | 'keyId' | 'repositoryId' | 'inventoryId' | 'environmentId' | 'viewId' | 'templateId'
> {
  /** A user who belongs to the project as task_runner and is the target of team and user calls. */
  targetUserId: number;
  targetUsername: string;
}

interface Case {
  name: string;
  method: string;
  url: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  expected: Record<Role, number>;
}

const member = (ok: number) => ({
  admin: ok,
  owner: ok,
  manager: ok,
  task_runner: ok,
  guest: ok,
  non_member: 404,
  anonymous: 401,
});
const needs = (ok: number, allowed: Role[]) => {
  const expected = member(403);
  for (const role of allowed) expected[role] = ok;
  return expected;
};
const signedIn = (ok: number) => ({
  admin: ok,
  owner: ok,
  manager: ok,
  task_runner: ok,
  guest: ok,
  non_member: ok,
  anonymous: 401,
});
const adminOnly = (ok: number) => ({
  admin: ok,
  owner: 403,
  manager: 403,
  task_runner: 403,
  guest: 403,
  non_member: 403,
  anonymous: 401,
});

const CASES: Case[] = [
  { name: 'get project', method: 'GET', url: (f) => `/api/project/${f.projectId}`, expected: member(200) },
  {
    name: 'update project',
    method: 'PUT',
    url: (f) => `/api/project/${f.projectId}`,
    body: () => ({ name: 'Renamed' }),
    expected: needs(204, ['admin', 'owner']),
  },
  {
    name: 'delete project',
    method: 'DELETE',
    url: (f) => `/api/project/${f.projectId}`,
    expected: needs(204, ['admin', 'owner']),
  },
  { name: 'project role', method: 'GET', url: (f) => `/api/project/${f.projectId}/role`, expected: member(200) },
  { name: 'project events', method: 'GET', url: (f) => `/api/project/${f.projectId}/events`, expected: member(200) },
  {
    name: 'project last events',
    method: 'GET',
    url: (f) => `/api/project/${f.projectId}/events/last`,
    expected: member(200),
  },
  {
    name: 'list team',
    method: 'GET',
    url: (f) => `/api/project/${f.projectId}/users?sort=name&order=asc`,
    expected: member(200),
  },
  {
    name: 'get team member',
    method: 'GET',
    url: (f) => `/api/project/${f.projectId}/users/${f.targetUserId}`,
    expected: member(200),
  },
  {
    name: 'add team member',
    method: 'POST',
    url: (f) => `/api/project/${f.projectId}/users`,
    body: () => ({ user_id: outsiderId, role: 'guest' }),
    expected: needs(204, ['admin', 'owner']),
  },
  {
    name: 'change member role',
    method: 'PUT',
    url: (f) => `/api/project/${f.projectId}/users/${f.targetUserId}`,
    body: () => ({ role: 'manager' }),
    expected: needs(204, ['admin', 'owner']),
  },
  {
    name: 'remove member',
    method: 'DELETE',
    url: (f) => `/api/project/${f.projectId}/users/${f.targetUserId}`,
    expected: needs(204, ['admin', 'owner']),
  },
  {
    name: 'leave project',
    method: 'DELETE',
    url: (f) => `/api/project/${f.projectId}/me`,
    // The project keeps another owner, so this one may leave; an admin who is not a member has nothing to leave.
    expected: { admin: 400, owner: 204, manager: 204, task_runner: 204, guest: 204, non_member: 404, anonymous: 401 },
  },
  { name: 'list projects', method: 'GET', url: () => '/api/projects', expected: signedIn(200) },
  {
    name: 'create project',
    method: 'POST',
    url: () => '/api/projects',
    body: () => ({ name: 'New' }),
    expected: adminOnly(201),
  },
  { name: 'current user', method: 'GET', url: () => '/api/user', expected: signedIn(200) },
  { name: 'system info', method: 'GET', url: () => '/api/info', expected: signedIn(200) },
  { name: 'events', method: 'GET', url: () => '/api/events', expected: signedIn(200) },
  { name: 'last events', method: 'GET', url: () => '/api/events/last', expected: signedIn(200) },
  { name: 'list tokens', method: 'GET', url: () => '/api/user/tokens', expected: signedIn(200) },
  { name: 'create token', method: 'POST', url: () => '/api/user/tokens', body: () => ({}), expected: signedIn(201) },
  { name: 'list users', method: 'GET', url: () => '/api/users', expected: signedIn(200) },
  { name: 'get other user', method: 'GET', url: (f) => `/api/users/${f.targetUserId}`, expected: adminOnly(200) },
  {
    name: 'create user',
    method: 'POST',
    url: () => '/api/users',
    body: () => ({
      username: `u${Math.random().toString(36).slice(2, 8)}`,
      name: 'N',
      email: `${Math.random().toString(36).slice(2, 8)}@e.x`,
      password: 'pw-123456',
    }),
    expected: adminOnly(201),
  },
  {
    name: 'update other user',
    method: 'PUT',
    url: (f) => `/api/users/${f.targetUserId}`,
    body: (f) => ({ name: 'Changed', username: f.targetUsername, email: `${f.targetUsername}@example.com` }),
    expected: adminOnly(204),
  },
  {
    name: 'set other password',
    method: 'POST',
    url: (f) => `/api/users/${f.targetUserId}/password`,
    body: () => ({ password: 'other-Pass-1' }),
    expected: adminOnly(204),
  },
  { name: 'delete other user', method: 'DELETE', url: (f) => `/api/users/${f.targetUserId}`, expected: adminOnly(204) },
  {
    name: 'login options',
    method: 'GET',
    url: () => '/api/auth/login',
    expected: { ...signedIn(200), anonymous: 200 },
  },
];

const manager = (ok: number) => needs(ok, ['admin', 'owner', 'manager']);
const unique = () => Math.random().toString(36).slice(2, 8);

interface ResourceSpec {
  path: string;
  id: (f: Fixture) => number;
  body: (f: Fixture) => unknown;
  refs: boolean;
}

const RESOURCES: Record<string, ResourceSpec> = {
  keys: { path: 'keys', id: (f) => f.keyId, body: () => ({ name: `k${unique()}`, type: 'none' }), refs: true },
  repositories: {
    path: 'repositories',
    id: (f) => f.repositoryId,
    body: (f) => ({ name: `r${unique()}`, git_url: '/srv/repo', ssh_key_id: f.keyId }),
    refs: true,
  },
  inventory: {
    path: 'inventory',
    id: (f) => f.inventoryId,
    body: (f) => ({ name: `i${unique()}`, type: 'static', inventory: 'localhost', ssh_key_id: f.keyId }),
    refs: true,
  },
  environment: {
    path: 'environment',
    id: (f) => f.environmentId,
    body: () => ({ name: `e${unique()}`, json: '{}' }),
    refs: true,
  },
  views: { path: 'views', id: (f) => f.viewId, body: () => ({ title: `v${unique()}` }), refs: false },
  templates: {
    path: 'templates',
    id: (f) => f.templateId,
    body: (f) => ({
      name: `t${unique()}`,
      app: 'bash',
      playbook: 'run.sh',
      repository_id: f.repositoryId,
      environment_id: f.environmentId,
    }),
    refs: true,
  },
};

for (const [name, spec] of Object.entries(RESOURCES)) {
  const url = (f: Fixture) => `/api/project/${f.projectId}/${spec.path}`;
  CASES.push(
    { name: `list ${name}`, method: 'GET', url, expected: member(200) },
    { name: `create ${name}`, method: 'POST', url, body: spec.body, expected: manager(201) },
    { name: `get ${name}`, method: 'GET', url: (f) => `${url(f)}/${spec.id(f)}`, expected: member(200) },
    {
      name: `update ${name}`,
      method: 'PUT',
      url: (f) => `${url(f)}/${spec.id(f)}`,
      body: spec.body,
      expected: manager(204),
    },
    { name: `delete ${name}`, method: 'DELETE', url: (f) => `${url(f)}/${spec.id(f)}`, expected: manager(204) },
  );
  if (spec.refs)
    CASES.push({
      name: `${name} refs`,
      method: 'GET',
      url: (f) => `${url(f)}/${spec.id(f)}/refs`,
      expected: member(200),
    });
}
CASES.push(
  {
    name: 'view positions',
    method: 'POST',
    url: (f) => `/api/project/${f.projectId}/views/positions`,
    body: (f) => ({ [f.viewId]: 3 }),
    expected: manager(204),
  },
  {
    name: 'templates of a view',
    method: 'GET',
    url: (f) => `/api/project/${f.projectId}/views/${f.viewId}/templates`,
    expected: member(200),
  },
  { name: 'list apps', method: 'GET', url: () => '/api/apps', expected: signedIn(200) },
  {
    name: 'create app',
    method: 'POST',
    url: () => '/api/apps',
    body: () => ({ id: `app${unique()}` }),
    expected: adminOnly(201),
  },
  { name: 'get app', method: 'GET', url: () => '/api/apps/python', expected: adminOnly(200) },
  {
    name: 'update app',
    method: 'PUT',
    url: () => '/api/apps/python',
    body: () => ({ title: 'Python' }),
    expected: adminOnly(204),
  },
  {
    name: 'toggle app',
    method: 'POST',
    url: () => '/api/apps/python/active',
    body: () => ({ active: true }),
    expected: adminOnly(204),
  },
  // This server has no alert channel: those allowed get past the permission check to the 400 saying so.
  {
    name: 'send test alert',
    method: 'POST',
    url: (f) => `/api/project/${f.projectId}/notifications/test`,
    expected: manager(400),
  },
);

let outsiderId = 0;

const dialects = await listTestDialects();

describe.each(dialects)('permissions on %s', (dialect) => {
  const cookies = {} as Record<Role, string>;
  const ids = {} as Record<Role, number>;
  let targetCounter = 0;

  const t = useTestApp(dialect);
  beforeAll(async () => {
    const admin2 = await t.createUser('admin2', { admin: true });
    cookies.admin = admin2.cookie;
    for (const role of ['owner', 'manager', 'task_runner', 'guest', 'non_member'] as const) {
      const user = await t.createUser(role.replace('_', ''));
      cookies[role] = user.cookie;
      ids[role] = user.id;
    }
    outsiderId = ids.non_member;
    cookies.anonymous = '';
  });

  async function createFixture(): Promise<Fixture> {
    const project = await t.request('POST', '/api/projects', {
      as: t.adminCookie,
      body: { name: `P${targetCounter}` },
    });
    const projectId = (project.body as { id: number }).id;
    targetCounter += 1;
    const targetUsername = `target${targetCounter}`;
    const target = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: {
        username: targetUsername,
        name: 'Target',
        email: `${targetUsername}@example.com`,
        password: 'target-Pw-1',
      },
    });
    const targetUserId = (target.body as { id: number }).id;
    const members: [number, string][] = [
      [ids.owner, 'owner'],
      [ids.manager, 'manager'],
      [ids.task_runner, 'task_runner'],
      [ids.guest, 'guest'],
      [targetUserId, 'task_runner'],
    ];
    for (const [userId, role] of members) {
      const added = await t.request('POST', `/api/project/${projectId}/users`, {
        as: t.adminCookie,
        body: { user_id: userId, role },
      });
      expect(added.status).toBe(204);
    }
    const seed = async (path: string, body: unknown) => {
      const created = await t.request('POST', `/api/project/${projectId}/${path}`, { as: t.adminCookie, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return (created.body as { id: number }).id;
    };
    const keyId = await seed('keys', { name: 'k', type: 'none' });
    const repositoryId = await seed('repositories', { name: 'r', git_url: '/srv/repo', ssh_key_id: keyId });
    const inventoryId = await seed('inventory', {
      name: 'i',
      type: 'static',
      inventory: 'localhost',
      ssh_key_id: keyId,
    });
    const environmentId = await seed('environment', { name: 'e', json: '{}' });
    const viewId = await seed('views', { title: 'v' });
    const templateId = await seed('templates', {
      name: 't',
      app: 'bash',
      playbook: 'a.sh',
      repository_id: repositoryId,
      environment_id: environmentId,
    });
    // The key, repository and variable group are used by the seeded ones; give the delete cases unused twins.
    return {
      projectId,
      targetUserId,
      targetUsername,
      keyId: await seed('keys', { name: 'k2', type: 'none' }),
      repositoryId: await seed('repositories', { name: 'r2', git_url: '/srv/repo', ssh_key_id: keyId }),
      inventoryId,
      environmentId: await seed('environment', { name: 'e2', json: '{}' }),
      viewId,
      templateId,
    };
  }

  for (const c of CASES) {
    it(`${c.name} (${c.method}) answers each role as its permissions allow`, async () => {
      const actual = {} as Record<Role, number>;
      for (const role of ROLES) {
        const fixture = await createFixture();
        const response = await t.request(c.method, c.url(fixture), {
          ...(cookies[role] ? { as: cookies[role] } : {}),
          ...(c.body ? { body: c.body(fixture) } : {}),
        });
        actual[role] = response.status;
      }
      expect(actual).toEqual(c.expected);
    });
  }
});
