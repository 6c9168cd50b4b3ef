import { expect } from 'vitest';
import { insertRow } from '../src/db/insert.ts';
import type { Access } from '../src/http/route.ts';
import { addMember, insertTaskRow } from './task-fixture.ts';
import type { TestApp, TestResponse } from './test-app.ts';

/** Who may call an operation, as the router publishes it in the OpenAPI document (x-gantry-access). */
type OperationAccess = Access;

export interface Operation {
  method: string;
  /** Fastify-style path of the OpenAPI document: /api/project/{projectId}/keys/{keyId}. */
  path: string;
  access: OperationAccess;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
}

interface OpenApiOperation {
  'x-gantry-access'?: OperationAccess;
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
}

/** Every operation the served OpenAPI document lists, in its order. */
export async function listOperations(t: TestApp): Promise<Operation[]> {
  const document = (await t.request('GET', '/api/openapi.json')).body as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const access = operation['x-gantry-access'];
      expect(access, `${method.toUpperCase()} ${path} publishes its access`).toBeDefined();
      if (!access) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        access,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations;
}

/** Fills the path's parameters from `values`; a parameter without a value gets `fallback`. */
export function fillPath(operation: Operation, values: Record<string, string | number>, fallback = 'x'): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(values[name] ?? fallback)),
  );
}

/** A valid body for an integration's extracted value, and one for a matcher. */
export const INTEGRATION_VALUE_BODY = {
  name: 'v',
  value_source: 'body',
  body_data_type: 'json',
  key: 'a',
  variable: 'V',
};
export const INTEGRATION_MATCHER_BODY = {
  name: 'm',
  match_type: 'body',
  body_data_type: 'json',
  key: 'a',
  method: 'equals',
  value: 'x',
};

/** Ids of one seeded resource of each kind in a project, keyed by the path parameter that names it. */
export interface ProjectIds {
  projectId: number;
  keyId: number;
  repositoryId: number;
  inventoryId: number;
  environmentId: number;
  viewId: number;
  templateId: number;
  scheduleId: number;
  integrationId: number;
  valueId: number;
  matcherId: number;
  aliasId: number;
  runnerId: number;
  taskId: number;
  /** A member of the project (a guest) for the team routes. */
  userId: number;
  /** A terraform workspace with a backend alias and a state, for the terraform routes. */
  workspaceId: number;
  workspaceAliasId: number;
  workspaceStateId: number;
  /** A workflow running the seeded template, and the number of its first revision. */
  workflowId: number;
  version: number;
}

const unique = () => Math.random().toString(36).slice(2, 8);

/**
 * A project holding one resource of every kind a path parameter can name, created by the admin
 * (who becomes its owner), with a new user as its guest.
 */
export async function seedProject(t: TestApp, name: string): Promise<ProjectIds> {
  const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name } });
  expect(project.status).toBe(201);
  const projectId = (project.body as { id: number }).id;
  const base = `/api/project/${projectId}`;
  const create = async (path: string, body?: unknown): Promise<number> => {
    const created = await t.request('POST', `${base}/${path}`, {
      as: t.adminCookie,
      ...(body === undefined ? {} : { body }),
    });
    expect([200, 201], `${path}: ${created.text}`).toContain(created.status);
    return (created.body as { id: number }).id;
  };
  const keyId = await create('keys', { name: `k${unique()}`, type: 'none' });
  const repositoryId = await create('repositories', {
    name: `r${unique()}`,
    git_url: '/srv/repo',
    git_branch: 'main',
    ssh_key_id: keyId,
  });
  const createInventory = (name: string, type: string, inventory: string) =>
    create('inventory', { name, type, inventory, ssh_key_id: keyId });
  const inventoryId = await createInventory(`i${unique()}`, 'static', 'localhost');
  const environmentId = await create('environment', { name: `e${unique()}`, json: '{}' });
  const viewId = await create('views', { title: `v${unique()}` });
  const templateId = await create('templates', {
    name: `t${unique()}`,
    app: 'bash',
    playbook: 'run.sh',
    repository_id: repositoryId,
    environment_id: environmentId,
    inventory_id: inventoryId,
    view_id: viewId,
  });
  const scheduleId = await create('schedules', {
    name: `s${unique()}`,
    template_id: templateId,
    cron_format: '0 0 1 1 *',
    active: false,
  });
  const integrationId = await create('integrations', { name: `n${unique()}`, template_id: templateId });
  const valueId = await create(`integrations/${integrationId}/values`, INTEGRATION_VALUE_BODY);
  const matcherId = await create(`integrations/${integrationId}/matchers`, INTEGRATION_MATCHER_BODY);
  const aliasId = await create(`integrations/${integrationId}/aliases`);
  const runnerId = await create('runners', { name: `runner${unique()}` });
  const workspaceId = await createInventory(`w${unique()}`, 'terraform-workspace', 'default');
  const workspaceAliasId = await create(`inventory/${workspaceId}/terraform/aliases`, {});
  // A state as a terraform run through the backend leaves it.
  const { db, dialect } = t.runtime.connection;
  const workspaceStateId = await insertRow(db, dialect, 'terraform_state', {
    project_id: projectId,
    inventory_id: workspaceId,
    task_id: null,
    state: '{"version":4,"serial":1}',
    created: new Date().toISOString(),
  });
  const taskId = await insertTaskRow(t, { project_id: projectId, template_id: templateId, status: 'success' });
  // A plan as a terraform task's run leaves it, so the plan's route has one to show.
  await t.runtime.services.taskPlans.save(taskId, {
    recap: { add: 1, change: 0, destroy: 0 },
    resources: [{ address: 'null_resource.a', action: 'create' }],
    truncated: false,
  });
  const workflowId = await create('workflows', {
    name: `w${unique()}`,
    steps: [{ key: 'run', kind: 'template', template_id: templateId }],
  });
  const member = await t.createUser(`guest-${unique()}`);
  await addMember(t, base, member.id, 'guest');
  return {
    projectId,
    keyId,
    repositoryId,
    inventoryId,
    environmentId,
    viewId,
    templateId,
    scheduleId,
    integrationId,
    valueId,
    matcherId,
    aliasId,
    runnerId,
    taskId,
    userId: member.id,
    workspaceId,
    workspaceAliasId,
    workspaceStateId,
    workflowId,
    version: 1,
  };
}

/**
 * Path parameters the seed can fill for an operation: terraform routes take the workspace as their
 * inventory, its backend alias (the name aliasId is shared with integrations) and its state.
 */
export function seededParams(operation: Operation, ids: ProjectIds): Record<string, number> {
  const { workspaceId, workspaceAliasId, workspaceStateId, ...params } = ids;
  if (!operation.path.includes('/terraform/')) return params;
  return { ...params, inventoryId: workspaceId, aliasId: workspaceAliasId, stateId: workspaceStateId };
}

/** What a project holds, as its members see it: the fuzz and matrix suites compare it before and after. */
export async function snapshotProject(t: TestApp, projectId: number): Promise<Record<string, unknown>> {
  const base = `/api/project/${projectId}`;
  const paths = [
    '',
    '/users',
    '/keys',
    '/repositories',
    '/inventory',
    '/environment',
    '/views',
    '/templates',
    '/schedules',
    '/integrations',
    '/runners',
    '/tasks',
    '/workflows',
  ];
  const snapshot: Record<string, unknown> = {};
  for (const path of paths) {
    const response: TestResponse = await t.request('GET', `${base}${path}`, { as: t.adminCookie });
    expect(response.status, `snapshot ${path}`).toBe(200);
    snapshot[path || '/'] = response.body;
  }
  const integrations = snapshot['/integrations'] as { id: number }[];
  for (const integration of integrations) {
    for (const child of ['values', 'matchers', 'aliases']) {
      snapshot[`/integrations/${integration.id}/${child}`] = (
        await t.request('GET', `${base}/integrations/${integration.id}/${child}`, { as: t.adminCookie })
      ).body;
    }
  }
  for (const inventory of snapshot['/inventory'] as { id: number; type: string }[]) {
    if (inventory.type !== 'terraform-workspace') continue;
    for (const child of ['aliases', 'states']) {
      snapshot[`/inventory/${inventory.id}/terraform/${child}`] = (
        await t.request('GET', `${base}/inventory/${inventory.id}/terraform/${child}`, { as: t.adminCookie })
      ).body;
    }
  }
  return snapshot;
}
