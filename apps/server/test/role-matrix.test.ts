import { ROLE_PERMISSIONS, hasPermissions, type ProjectRoleSlug } from '@gantry/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  INTEGRATION_MATCHER_BODY,
  INTEGRATION_VALUE_BODY,
  fillPath,
  listOperations,
  seedProject,
  seededParams,
  snapshotProject,
  type Operation,
  type ProjectIds,
} from './openapi-operations.ts';
import { addMember } from './task-fixture.ts';
import { type RequestOptions, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

type Caller = 'admin' | ProjectRoleSlug | 'non_member' | 'anonymous' | 'guest_token';
const CALLERS: Caller[] = [
  'anonymous',
  'non_member',
  'guest',
  'guest_token',
  'task_runner',
  'manager',
  'owner',
  'admin',
];
const MEMBER_ROLES: ProjectRoleSlug[] = ['owner', 'manager', 'task_runner', 'guest'];

/** The status class a caller must get from an operation, derived from the route's published access. */
type Expectation = 'unauthorized' | 'forbidden' | 'hidden' | 'allowed' | 'signed_in' | 'admin_allowed';

function expectationFor(operation: Operation, caller: Caller): Expectation | undefined {
  const { access } = operation;
  if (access.kind === 'public') return undefined;
  if (caller === 'anonymous') return 'unauthorized';
  if (access.kind === 'user') return 'signed_in';
  // Whether a caller is the user the path names, or may create projects, is checked before the input.
  if (access.kind === 'self' || access.kind === 'creator') return caller === 'admin' ? 'admin_allowed' : 'signed_in';
  // Ids of admin routes (apps, global runners, any task) are not seeded: "not found" still passed the check.
  if (access.kind === 'admin') return caller === 'admin' ? 'admin_allowed' : 'forbidden';
  if (caller === 'admin') return 'allowed';
  if (caller === 'non_member') return 'hidden';
  const role = caller === 'guest_token' ? 'guest' : caller;
  return hasPermissions(ROLE_PERMISSIONS[role], access.permissions) ? 'allowed' : 'forbidden';
}

function meets(expectation: Expectation, status: number): boolean {
  switch (expectation) {
    case 'unauthorized':
      return status === 401;
    case 'forbidden':
      return status === 403;
    case 'hidden':
      return status === 404;
    case 'signed_in':
      return status !== 401 && status < 500;
    case 'allowed':
      return ![401, 403, 404].includes(status) && status < 500;
    case 'admin_allowed':
      return status !== 401 && status !== 403 && status < 500;
  }
}

const isProjectRoute = (operation: Operation) => operation.access.kind === 'project';
const resourceParams = (operation: Operation) => operation.pathParams.filter((name) => name !== 'projectId');

/**
 * Operations that change something and have no input to get wrong (deleting or leaving a project,
 * a test alert, a project-wide webhook alias): they run against a throwaway project per caller.
 */
const isUnguarded = (operation: Operation) =>
  operation.method !== 'GET' && !operation.hasBody && resourceParams(operation).length === 0;

const dialects = await listTestDialects();

describe.each(dialects)('role matrix on %s', (dialect) => {
  let operations: Operation[];
  const auth = {} as Record<Caller, RequestOptions>;
  const userIds = {} as Record<Caller, number>;
  let mine: ProjectIds;
  let other: ProjectIds;

  async function addMembers(projectId: number): Promise<void> {
    for (const role of MEMBER_ROLES) await addMember(t, `/api/project/${projectId}`, userIds[role], role);
  }

  const t = useTestApp(dialect);
  beforeAll(async () => {
    auth.anonymous = {};
    const admin = await t.createUser('matrix-admin', { admin: true });
    auth.admin = { as: admin.cookie };
    for (const caller of [...MEMBER_ROLES, 'non_member'] as const) {
      const user = await t.createUser(`matrix-${caller.replace('_', '-')}`);
      auth[caller] = { as: user.cookie };
      userIds[caller] = user.id;
    }
    const token = await t.request('POST', '/api/user/tokens', { ...auth.guest, body: { name: 'matrix' } });
    expect(token.status).toBe(201);
    const tokenValue = (token.body as { id: string }).id;
    t.secrets.add(tokenValue);
    auth.guest_token = { headers: { authorization: `Bearer ${tokenValue}` } };

    mine = await seedProject(t, 'Matrix mine');
    await addMembers(mine.projectId);
    other = await seedProject(t, 'Matrix other');
    operations = await listOperations(t);
  });

  /** A request that passes the access check and then fails validation, so that an allowed caller changes nothing. */
  function harmlessRequest(operation: Operation, projectId: number): { url: string; options: RequestOptions } {
    const values: Record<string, string | number> = { ...seededParams(operation, mine), projectId };
    if (operation.method === 'GET') return { url: fillPath(operation, values), options: {} };
    if (operation.hasBody)
      return {
        url: fillPath(operation, values),
        options: { rawBody: '[]', headers: { 'content-type': 'application/json' } },
      };
    const last = resourceParams(operation).at(-1);
    if (last) values[last] = 'x';
    return { url: fillPath(operation, values), options: {} };
  }

  async function throwawayProject(): Promise<number> {
    const created = await t.request('POST', '/api/projects', {
      as: t.adminCookie,
      body: { name: `Throwaway ${Math.random().toString(36).slice(2, 8)}` },
    });
    const projectId = (created.body as { id: number }).id;
    await addMembers(projectId);
    return projectId;
  }

  it('publishes the access rule of every operation', () => {
    expect(operations.length).toBeGreaterThan(150);
    const projectOperations = operations.filter((o) => o.path.startsWith('/api/project/{projectId}'));
    expect(projectOperations.every(isProjectRoute)).toBe(true);
  });

  it('answers every operation as its access allows: anonymous 401, non-member 404, missing bit 403, holding it passes', async () => {
    const mismatches: string[] = [];
    for (const operation of operations) {
      for (const caller of CALLERS) {
        const expectation = expectationFor(operation, caller);
        if (!expectation) continue;
        const projectId =
          isUnguarded(operation) && isProjectRoute(operation) ? await throwawayProject() : mine.projectId;
        const { url, options } = harmlessRequest(operation, projectId);
        const headers = { ...options.headers, ...auth[caller].headers };
        const response = await t.request(operation.method, url, { ...options, ...auth[caller], headers });
        if (!meets(expectation, response.status)) {
          mismatches.push(
            `${operation.method} ${operation.path} as ${caller}: ${response.status} (expected ${expectation}) ${response.text.slice(0, 120)}`,
          );
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  /** Bodies that pass validation, so that only the foreign id can stop the call. */
  function validBody(operation: Operation): unknown {
    const suffix = operation.path.replace(/^\/api\/project\/\{projectId\}/, '');
    const bodies: Record<string, unknown> = {
      'PUT /keys/{keyId}': { name: 'kx', type: 'none' },
      'PUT /repositories/{repositoryId}': {
        name: 'rx',
        git_url: '/srv/repo',
        git_branch: 'main',
        ssh_key_id: mine.keyId,
      },
      'PUT /inventory/{inventoryId}': { name: 'ix', type: 'static', inventory: 'localhost', ssh_key_id: mine.keyId },
      'PUT /environment/{environmentId}': { name: 'ex', json: '{}' },
      'PUT /views/{viewId}': { title: 'vx' },
      'PUT /templates/{templateId}': {
        name: 'tx',
        app: 'bash',
        playbook: 'run.sh',
        repository_id: mine.repositoryId,
        environment_id: mine.environmentId,
      },
      'PUT /schedules/{scheduleId}': { name: 'sx', template_id: mine.templateId, cron_format: '0 0 1 1 *' },
      'PUT /schedules/{scheduleId}/active': { active: true },
      'PUT /integrations/{integrationId}': { name: 'nx', template_id: mine.templateId },
      'POST /integrations/{integrationId}/values': INTEGRATION_VALUE_BODY,
      'PUT /integrations/{integrationId}/values/{valueId}': INTEGRATION_VALUE_BODY,
      'POST /integrations/{integrationId}/matchers': INTEGRATION_MATCHER_BODY,
      'PUT /integrations/{integrationId}/matchers/{matcherId}': INTEGRATION_MATCHER_BODY,
      'PUT /users/{userId}': { role: 'manager' },
      'POST /tasks/{taskId}/stop': {},
      'PUT /runners/{runnerId}': { name: 'runnerx' },
      'POST /runners/{runnerId}/active': { active: false },
      'POST /inventory/{inventoryId}/terraform/aliases': {},
    };
    return bodies[`${operation.method} ${suffix}`];
  }

  /** Query strings that pass validation on routes that require one. */
  function validQuery(operation: Operation): string {
    const suffix = operation.path.replace(/^\/api\/project\/\{projectId\}/, '');
    const queries: Record<string, string> = { 'GET /tasks/{taskId}/output/search': '?q=x' };
    return queries[`${operation.method} ${suffix}`] ?? '';
  }

  it("answers 404 for ids of another project's resources, on every route with one, and changes nothing there", async () => {
    const before = await snapshotProject(t, other.projectId);
    const mismatches: string[] = [];
    let checked = 0;
    for (const operation of operations.filter(isProjectRoute)) {
      const params = resourceParams(operation);
      // Every seeded parameter names a resource of the other project.
      if (params.length === 0 || params.some((name) => seededParams(operation, other)[name] === undefined)) continue;
      const values: Record<string, string | number> = { ...seededParams(operation, other), projectId: mine.projectId };
      const body = validBody(operation);
      // Without a valid body the validation may answer first; the snapshot below still shows nothing changed.
      const allowed = operation.hasBody && body === undefined ? [400, 404] : [404];
      for (const caller of ['owner', 'admin'] as const) {
        const request = (ids: Record<string, string | number>) =>
          t.request(operation.method, fillPath(operation, ids) + validQuery(operation), {
            ...auth[caller],
            ...(body === undefined ? {} : { body }),
          });
        const response = await request(values);
        checked += 1;
        // A caller refused the operation whatever the id (only admins delete tasks) learns nothing from the 403.
        if (
          response.status === 403 &&
          (await request({ ...seededParams(operation, mine), projectId: mine.projectId })).status === 403
        )
          continue;
        if (!allowed.includes(response.status))
          mismatches.push(
            `${operation.method} ${operation.path} as ${caller}: ${response.status} ${response.text.slice(0, 120)}`,
          );
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(mismatches).toEqual([]);
    expect(await snapshotProject(t, other.projectId)).toEqual(before);
  }, 120_000);
});
