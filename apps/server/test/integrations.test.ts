import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerErrorHandler } from '../src/http/error-handler.ts';
import { registerWebhookRoutes } from '../src/modules/integrations/webhook.routes.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestResponse, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const HOOK_SECRET = 'hook-Secret-4f9a1c';
const HOOK_LOGIN = 'hook-user';
const sign = (body: string, secret = HOOK_SECRET) => createHmac('sha256', secret).update(body).digest('hex');

type Role = 'admin' | 'owner' | 'manager' | 'task_runner' | 'guest' | 'non_member' | 'anonymous';
const ROLES: Role[] = ['admin', 'owner', 'manager', 'task_runner', 'guest', 'non_member', 'anonymous'];
const READ: Record<Role, number> = {
  admin: 200,
  owner: 200,
  manager: 200,
  task_runner: 200,
  guest: 200,
  non_member: 404,
  anonymous: 401,
};
/** An alias starts tasks, so reading one takes the right to run tasks. */
const RUN: Record<Role, number> = { ...READ, guest: 403 };
const manage = (ok: number): Record<Role, number> => ({
  admin: ok,
  owner: ok,
  manager: ok,
  task_runner: 403,
  guest: 403,
  non_member: 404,
  anonymous: 401,
});

interface Integration {
  id: number;
  name: string;
  auth_method: string;
  auth_header: string;
  auth_secret_id: number | null;
  searchable: boolean;
  task_params: Record<string, unknown>;
}

describe.each(dialects)('integrations on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;
  let templateId = 0;
  let secretKeyId = 0;
  const cookies: Partial<Record<Role, string>> = {};

  beforeAll(async () => {
    t.secrets.add(HOOK_SECRET);
    p = await createProjectFixture(t, { 'hook.sh': 'echo "hook args: $*"\n' });
    templateId = await p.createTemplate({ name: 'Deploy on push', playbook: 'hook.sh', allow_parallel_tasks: true });
    secretKeyId = await p.createLoginPasswordKey('Webhook secret', HOOK_LOGIN, HOOK_SECRET);

    cookies.admin = (await t.createUser('otheradmin', { admin: true })).cookie;
    const owner = await t.createUser('hookowner');
    for (const role of ['owner', 'manager', 'task_runner', 'guest'] as const) {
      const user = role === 'owner' ? owner : await t.createUser(`hook${role.replace('_', '')}`);
      const added = await t.request('POST', `${p.base}/users`, { as: t.adminCookie, body: { user_id: user.id, role } });
      expect(added.status).toBe(204);
      cookies[role] = user.cookie;
    }
    cookies.non_member = (await t.createUser('hookoutsider')).cookie;
  });

  afterAll(async () => {
    // Let every task a webhook started finish before the database goes away.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const tasks = (await t.request('GET', `${p.base}/tasks`, { as: t.adminCookie })).body as { status: string }[];
      if (tasks.every((task) => ['success', 'error', 'stopped'].includes(task.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  const api = (method: string, path: string, body?: unknown, as: string | undefined = t.adminCookie) =>
    t.request(method, `${p.base}${path}`, { ...(as ? { as } : {}), ...(body !== undefined ? { body } : {}) });

  async function createIntegration(fields: Record<string, unknown> = {}): Promise<Integration> {
    const response = await api('POST', '/integrations', {
      name: `I${Math.random().toString(36).slice(2, 7)}`,
      template_id: templateId,
      ...fields,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Integration;
  }

  async function addAlias(integrationId?: number): Promise<string> {
    const response = await api(
      'POST',
      integrationId ? `/integrations/${integrationId}/aliases` : '/integrations/aliases',
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const url = (response.body as { url: string }).url;
    return url.slice(url.lastIndexOf('/') + 1);
  }

  /** A matcher on the JSON body's value at `key`; without `method` the server's default (equals) applies. */
  const jsonBodyMatcher = (key: string, value: string, method?: string) => ({
    match_type: 'body',
    body_data_type: 'json',
    key,
    value,
    ...(method ? { method } : {}),
  });

  async function addMatcher(integrationId: number, fields: Record<string, unknown>) {
    const response = await api('POST', `/integrations/${integrationId}/matchers`, {
      name: 'm',
      method: 'equals',
      ...fields,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }

  async function addValue(integrationId: number, fields: Record<string, unknown>) {
    const response = await api('POST', `/integrations/${integrationId}/values`, { name: 'v', ...fields });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }

  function hook(
    alias: string,
    options: { body?: string; headers?: Record<string, string>; method?: string } = {},
  ): Promise<TestResponse> {
    return t.request(options.method ?? 'POST', `/api/integrations/${alias}`, {
      ...(options.body !== undefined ? { rawBody: options.body } : {}),
      headers: options.headers ?? {},
    });
  }

  const startedTaskId = (response: TestResponse) => {
    expect(response.status, response.text).toBe(204);
    const header = response.headers['x-gantry-task-id'];
    return header === undefined ? undefined : Number(header);
  };

  const lastEvents = async () =>
    ((await api('GET', '/events/last')).body as { description: string }[]).map((e) => e.description);

  it('creates, reads, updates and deletes integrations with their values, matchers and aliases', async () => {
    const created = await createIntegration({
      name: 'GitHub push',
      auth_method: 'github',
      auth_secret_id: secretKeyId,
      task_params: { message: 'from hook' },
    });
    expect(created).toMatchObject({
      name: 'GitHub push',
      template_id: templateId,
      auth_method: 'github',
      auth_header: '',
      auth_secret_id: secretKeyId,
      searchable: false,
    });
    expect(created.task_params).toMatchObject({ message: 'from hook' });

    const updated = await api('PUT', `/integrations/${created.id}`, {
      id: created.id,
      name: 'Token hook',
      template_id: templateId,
      auth_method: 'token',
      auth_header: 'X-Token',
      auth_secret_id: secretKeyId,
      searchable: true,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(204);
    expect((await api('GET', `/integrations/${created.id}`)).body).toMatchObject({
      name: 'Token hook',
      auth_method: 'token',
      auth_header: 'X-Token',
      searchable: true,
    });
    expect(((await api('GET', '/integrations?sort=name&order=desc')).body as Integration[]).map((i) => i.id)).toContain(
      created.id,
    );

    await addValue(created.id, {
      name: 'Ref',
      value_source: 'body',
      body_data_type: 'json',
      key: 'ref',
      variable: 'REF',
    });
    await addMatcher(created.id, { name: 'Branch', match_type: 'header', key: 'X-Event', value: 'push' });
    const values = (await api('GET', `/integrations/${created.id}/values`)).body as { id: number }[];
    const matchers = (await api('GET', `/integrations/${created.id}/matchers`)).body as { id: number }[];
    // Each part is stored with an id of its own under the integration.
    const storedPart = { id: expect.any(Number) as number, integration_id: created.id };
    expect(values).toEqual([
      {
        ...storedPart,
        name: 'Ref',
        value_source: 'body',
        body_data_type: 'json',
        key: 'ref',
        variable: 'REF',
        variable_type: 'environment',
      },
    ]);
    expect(matchers).toEqual([
      {
        ...storedPart,
        name: 'Branch',
        match_type: 'header',
        body_data_type: '',
        key: 'X-Event',
        method: 'equals',
        value: 'push',
      },
    ]);
    const valueId = values[0]?.id ?? 0;
    const matcherId = matchers[0]?.id ?? 0;

    expect(
      (
        await api('PUT', `/integrations/${created.id}/values/${valueId}`, {
          name: 'Ref2',
          value_source: 'header',
          key: 'X-Ref',
          variable: 'REF',
          variable_type: 'task',
        })
      ).status,
    ).toBe(204);
    expect((await api('GET', `/integrations/${created.id}/values/${valueId}`)).body).toMatchObject({
      name: 'Ref2',
      value_source: 'header',
      variable_type: 'task',
    });
    expect(
      (
        await api('PUT', `/integrations/${created.id}/matchers/${matcherId}`, {
          name: 'Kind',
          match_type: 'body',
          body_data_type: 'string',
          method: 'contains',
          value: 'x',
        })
      ).status,
    ).toBe(204);
    expect((await api('GET', `/integrations/${created.id}/matchers/${matcherId}`)).body).toMatchObject({
      name: 'Kind',
      match_type: 'body',
      body_data_type: 'string',
      key: '',
      method: 'contains',
    });
    expect((await api('GET', `/integrations/${created.id}/refs`)).body).toEqual({
      matchers: [{ id: matcherId, name: 'Kind' }],
      values: [{ id: valueId, name: 'Ref2' }],
    });
    expect((await api('GET', `/integrations/${created.id}/matchers/${matcherId}/refs`)).body).toEqual({
      integrations: [{ id: created.id, name: 'Token hook' }],
    });
    expect((await api('GET', `/integrations/${created.id}/values/${valueId}/refs`)).body).toEqual({
      integrations: [{ id: created.id, name: 'Token hook' }],
    });

    const alias = await api('POST', `/integrations/${created.id}/aliases`);
    const aliasBody = alias.body as { id: number; url: string };
    expect(aliasBody.url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/integrations\/[A-Za-z0-9_-]{32}$/);
    const projectAlias = (await api('POST', '/integrations/aliases')).body as { id: number; url: string };
    expect(projectAlias.url).not.toBe(aliasBody.url);
    expect((await api('GET', `/integrations/${created.id}/aliases`)).body).toEqual([aliasBody]);
    expect((await api('GET', '/integrations/aliases')).body).toEqual([projectAlias]);
    // An alias is removed only through its owner.
    expect((await api('DELETE', `/integrations/aliases/${aliasBody.id}`)).status).toBe(404);
    expect((await api('DELETE', `/integrations/${created.id}/aliases/${aliasBody.id}`)).status).toBe(204);
    expect((await api('DELETE', `/integrations/aliases/${projectAlias.id}`)).status).toBe(204);
    expect((await api('GET', `/integrations/${created.id}/aliases`)).body).toEqual([]);

    expect((await api('DELETE', `/integrations/${created.id}/values/${valueId}`)).status).toBe(204);
    expect((await api('DELETE', `/integrations/${created.id}/matchers/${matcherId}`)).status).toBe(204);
    expect((await api('GET', `/integrations/${created.id}/values/${valueId}`)).status).toBe(404);
    await addAlias(created.id);
    expect((await api('DELETE', `/integrations/${created.id}`)).status).toBe(204);
    expect((await api('GET', `/integrations/${created.id}`)).status).toBe(404);
    expect((await api('GET', `/integrations/${created.id}/matchers`)).status).toBe(404);
  });

  it('uses the configured public address in alias URLs', async () => {
    const app = await createTestApp(dialect, { web_host: 'https://gantry.example.com/' });
    try {
      const fixture = await createProjectFixture(app, { 'a.sh': 'true\n' });
      const template = await fixture.createTemplate({ playbook: 'a.sh' });
      const integration = await app.request('POST', `${fixture.base}/integrations`, {
        as: app.adminCookie,
        body: { name: 'I', template_id: template },
      });
      const alias = await app.request(
        'POST',
        `${fixture.base}/integrations/${(integration.body as { id: number }).id}/aliases`,
        { as: app.adminCookie },
      );
      expect((alias.body as { url: string }).url).toMatch(
        /^https:\/\/gantry\.example\.com\/api\/integrations\/[A-Za-z0-9_-]{32}$/,
      );
    } finally {
      await app.close();
    }
  });

  it('rejects invalid integrations, values and matchers with the seed messages', async () => {
    const post = (path: string, body: unknown) => api('POST', path, body);
    const expectError = async (response: Promise<TestResponse>, error: string) => {
      const answered = await response;
      expect(answered.status, JSON.stringify(answered.body)).toBe(400);
      expect(answered.body).toMatchObject({ error });
    };
    await expectError(post('/integrations', { name: '  ', template_id: templateId }), 'Name is required');
    await expectError(post('/integrations', { name: 'x' }), 'Template is required');
    await expectError(post('/integrations', { name: 'x', template_id: 999999 }), 'Template not found in this project');
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, auth_method: 'token', auth_secret_id: secretKeyId }),
      'Auth header is required',
    );
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, auth_method: 'github' }),
      'Auth secret is required',
    );
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, auth_method: 'github', auth_secret_id: 0 }),
      'Auth secret is required',
    );
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, auth_method: 'carrier-pigeon' }),
      'Unknown authentication method',
    );
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, auth_method: 'github', auth_secret_id: p.noneKeyId }),
      'Auth secret must be a login with password key',
    );
    await expectError(
      post('/integrations', { name: 'x', template_id: templateId, project_id: p.projectId + 1000 }),
      'Project ID in body and URL must be the same',
    );
    expect((await post('/integrations', '[1,2')).status).toBe(400);

    const integration = await createIntegration();
    const values = `/integrations/${integration.id}/values`;
    await expectError(
      post(values, { value_source: 'body', body_data_type: 'json', key: 'a', variable: 'A' }),
      'Name is required',
    );
    await expectError(post(values, { name: 'n', key: 'a', variable: 'A' }), 'Value Source is required');
    await expectError(
      post(values, { name: 'n', value_source: 'body', key: 'a', variable: 'A' }),
      'Body data type is required',
    );
    await expectError(post(values, { name: 'n', value_source: 'header', variable: 'A' }), 'Key is required');
    await expectError(
      post(values, { name: 'n', value_source: 'body', body_data_type: 'json', key: 'a' }),
      'Variable is required',
    );
    await expectError(
      post(values, { name: 'n', value_source: 'header', key: 'a', variable: 'A', integration_id: integration.id + 1 }),
      'Integration ID in body and URL must be the same',
    );

    const matchers = `/integrations/${integration.id}/matchers`;
    const matcher = { name: 'n', match_type: 'body', body_data_type: 'json', key: 'k', method: 'equals', value: 'v' };
    await expectError(post(matchers, { ...matcher, name: '' }), 'Name is required');
    await expectError(post(matchers, { ...matcher, match_type: undefined }), 'Match source is required');
    await expectError(post(matchers, { ...matcher, body_data_type: undefined }), 'Body data format is required');
    await expectError(post(matchers, { ...matcher, key: '' }), 'Key is required');
    await expectError(post(matchers, { ...matcher, method: 'resembles' }), 'Comparison method is required');
    await expectError(post(matchers, { ...matcher, value: '' }), 'Value is required');
    expect((await post('/integrations/999999/matchers', matcher)).status).toBe(404);
    expect((await api('GET', '/integrations/abc')).status).toBe(400);
    const openapi = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/api/project/{projectId}/integrations',
        '/api/project/{projectId}/integrations/{integrationId}/matchers/{matcherId}',
      ]),
    );
  });

  it('keeps templates and keys that an integration uses from being deleted', async () => {
    const otherTemplate = await p.createTemplate({ name: 'Used by hook', playbook: 'hook.sh' });
    const key = (
      await api('POST', '/keys', {
        name: 'Hook key 2',
        type: 'login_password',
        login_password: { login: 'x', password: 'other-Hook-pw' },
      })
    ).body as { id: number };
    t.secrets.add('other-Hook-pw');
    const integration = await createIntegration({
      name: 'Guarded',
      template_id: otherTemplate,
      auth_method: 'hmac',
      auth_header: 'X-Sig',
      auth_secret_id: key.id,
    });

    expect((await api('GET', `/templates/${otherTemplate}/refs`)).body).toMatchObject({
      integrations: [{ id: integration.id, name: 'Guarded' }],
    });
    expect((await api('GET', `/keys/${key.id}/refs`)).body).toMatchObject({
      integrations: [{ id: integration.id, name: 'Guarded' }],
    });
    expect((await api('DELETE', `/templates/${otherTemplate}`)).body).toMatchObject({ code: 'in_use' });
    expect((await api('DELETE', `/keys/${key.id}`)).body).toMatchObject({ code: 'in_use' });

    expect((await api('DELETE', `/integrations/${integration.id}`)).status).toBe(204);
    expect((await api('DELETE', `/templates/${otherTemplate}`)).status).toBe(204);
    expect((await api('DELETE', `/keys/${key.id}`)).status).toBe(204);
  });

  it('lets every member read integrations, who may run tasks read aliases, and only resource managers change them', async () => {
    const shared = await createIntegration({ name: 'Shared' });
    await addMatcher(shared.id, { match_type: 'header', key: 'X-A', value: 'a' });
    await addValue(shared.id, { value_source: 'header', key: 'X-A', variable: 'A' });
    const matcherId = ((await api('GET', `/integrations/${shared.id}/matchers`)).body as { id: number }[])[0]?.id ?? 0;
    const valueId = ((await api('GET', `/integrations/${shared.id}/values`)).body as { id: number }[])[0]?.id ?? 0;

    const matcher = (key: string, value: string) => ({ name: 'm', match_type: 'header', key, method: 'equals', value });
    const value = (key: string, variable: string) => ({ name: 'v', value_source: 'header', key, variable });
    for (const role of ROLES) {
      const as = cookies[role];
      const disposable = await createIntegration({ name: `Disposable ${role}` });
      const sharedPath = `/integrations/${shared.id}`;
      const checks: [method: string, path: string, body: unknown, expected: Record<Role, number>, what: string][] = [
        ['GET', '/integrations', undefined, READ, 'lists integrations'],
        ['GET', sharedPath, undefined, READ, 'reads an integration'],
        ['GET', `${sharedPath}/refs`, undefined, READ, 'reads refs'],
        ['GET', `${sharedPath}/aliases`, undefined, RUN, 'lists aliases'],
        ['GET', '/integrations/aliases', undefined, RUN, 'lists project aliases'],
        ['GET', `${sharedPath}/values`, undefined, READ, 'lists values'],
        ['GET', `${sharedPath}/matchers`, undefined, READ, 'lists matchers'],
        ['GET', `${sharedPath}/matchers/${matcherId}`, undefined, READ, 'reads a matcher'],
        [
          'POST',
          '/integrations',
          { name: `By ${role}`, template_id: templateId },
          manage(201),
          'creates an integration',
        ],
        ['PUT', sharedPath, { name: 'Shared', template_id: templateId }, manage(204), 'updates an integration'],
        ['POST', `${sharedPath}/aliases`, undefined, manage(200), 'adds an alias'],
        ['POST', '/integrations/aliases', undefined, manage(200), 'adds a project alias'],
        ['POST', `${sharedPath}/matchers`, matcher('X', 'v'), manage(200), 'adds a matcher'],
        ['PUT', `${sharedPath}/matchers/${matcherId}`, matcher('X-A', 'a'), manage(204), 'updates a matcher'],
        ['POST', `${sharedPath}/values`, value('X', 'V'), manage(201), 'adds a value'],
        ['PUT', `${sharedPath}/values/${valueId}`, value('X-A', 'A'), manage(204), 'updates a value'],
        ['DELETE', `/integrations/${disposable.id}`, undefined, manage(204), 'deletes an integration'],
      ];
      for (const [method, path, body, expected, what] of checks) {
        const response = await t.request(method, `${p.base}${path}`, {
          ...(as ? { as } : {}),
          ...(body !== undefined ? { body } : {}),
        });
        expect(response.status, `${role} ${what}`).toBe(expected[role]);
      }
    }
  });

  it('leaves the webhook aliases out of a backup taken by a member who may not run tasks', async () => {
    const hooked = await createIntegration({ name: 'Hooked' });
    const own = (await api('POST', `/integrations/${hooked.id}/aliases`)).body as { url: string };
    const projectWide = (await api('POST', '/integrations/aliases')).body as { url: string };
    const aliasOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
    type Backup = { integrations: { name: string; aliases: string[] }[]; integration_aliases: string[] };
    const backupAs = async (role: Role) => {
      const response = await t.request('GET', `${p.base}/backup`, { as: cookies[role] ?? '' });
      expect(response.status).toBe(200);
      const backup = response.body as Backup;
      return {
        aliases: backup.integrations.find((i) => i.name === 'Hooked')?.aliases,
        project: backup.integration_aliases,
      };
    };
    const runner = await backupAs('task_runner');
    expect(runner.aliases).toContain(aliasOf(own.url));
    expect(runner.project).toContain(aliasOf(projectWide.url));
    const guest = await backupAs('guest');
    expect(guest).toEqual({ aliases: [], project: [] });
    const text = JSON.stringify((await t.request('GET', `${p.base}/backup`, { as: cookies.guest ?? '' })).body);
    expect(text).not.toContain(aliasOf(own.url));
    expect(text).not.toContain(aliasOf(projectWide.url));
  });

  it('checks each authentication method: good credentials start a task, bad ones start nothing and are logged', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const keyed = { auth_secret_id: secretKeyId };
    const cases: {
      name: string;
      fields: Record<string, unknown>;
      good: Record<string, string>;
      bad: Record<string, string>[];
    }[] = [
      { name: 'Open', fields: {}, good: {}, bad: [] },
      {
        name: 'GitHub',
        fields: { auth_method: 'github', ...keyed },
        good: { 'X-Hub-Signature-256': `sha256=${sign(body)}` },
        bad: [{}, { 'X-Hub-Signature-256': `sha256=${sign(body, 'wrong')}` }, { 'X-Hub-Signature-256': sign(body) }],
      },
      {
        name: 'Bitbucket',
        fields: { auth_method: 'bitbucket', ...keyed },
        good: { 'X-Hub-Signature': `sha256=${sign(body)}` },
        bad: [{ 'X-Hub-Signature': `sha256=${sign(`${body} `)}` }],
      },
      {
        name: 'Token',
        fields: { auth_method: 'token', auth_header: 'X-Gitlab-Token', ...keyed },
        good: { 'X-Gitlab-Token': HOOK_SECRET },
        bad: [{}, { 'X-Gitlab-Token': `${HOOK_SECRET}x` }, { 'X-Other-Token': HOOK_SECRET }],
      },
      {
        name: 'GitLab',
        fields: { auth_method: 'gitlab', ...keyed },
        good: { 'X-Gitlab-Token': HOOK_SECRET },
        bad: [{}, { 'X-Gitlab-Token': `${HOOK_SECRET}x` }, { 'X-Token': HOOK_SECRET }],
      },
      {
        name: 'HMAC',
        fields: { auth_method: 'hmac', auth_header: 'X-Signature', ...keyed },
        good: { 'X-Signature': sign(body).toUpperCase() },
        bad: [{ 'X-Signature': sign('{}') }, { 'X-Signature': '' }],
      },
      {
        name: 'Basic',
        fields: { auth_method: 'basic', ...keyed },
        good: { Authorization: `Basic ${Buffer.from(`${HOOK_LOGIN}:${HOOK_SECRET}`).toString('base64')}` },
        bad: [
          { Authorization: `Basic ${Buffer.from(`intruder:${HOOK_SECRET}`).toString('base64')}` },
          { Authorization: 'Basic !!!' },
        ],
      },
    ];
    for (const c of cases) {
      const integration = await createIntegration({ name: `${c.name} auth`, ...c.fields });
      const alias = await addAlias(integration.id);
      for (const headers of c.bad) {
        expect(
          startedTaskId(await hook(alias, { body, headers })),
          `${c.name} with ${JSON.stringify(headers)}`,
        ).toBeUndefined();
      }
      const taskId = startedTaskId(await hook(alias, { body, headers: c.good }));
      expect(taskId, `${c.name} with good credentials`).toBeDefined();
      expect((await api('GET', `/tasks/${taskId}`)).body).toMatchObject({
        integration_id: integration.id,
        user_id: null,
        template_id: templateId,
      });
      if (c.bad.length > 0)
        expect(await lastEvents()).toContainEqual(
          expect.stringContaining(`integration ${c.name} auth started nothing: authentication failed`),
        );
    }
  });

  it('takes integrations as Semaphore\'s Terraform provider writes them: "none" kept as sent, null lists, null task_params when unset', async () => {
    const open = await createIntegration({ name: 'Written as none', auth_method: 'none' });
    expect(open.auth_method).toBe('none');
    expect(open.task_params).toBeNull();
    expect((await api('GET', `/integrations/${open.id}`)).body).toMatchObject({ auth_method: 'none' });
    // "none" checks nothing, as the empty method does.
    expect(startedTaskId(await hook(await addAlias(open.id), { body: '{}' }))).toBeDefined();

    // Go writes the lists it was not given as null.
    const params = { environment: '{}', params: { limit: null, skip_tags: ['slow'], tags: null, debug: null } };
    const listed = await createIntegration({ name: 'Null lists', task_params: params });
    expect(listed.task_params).toEqual({ environment: '{}', params: { skip_tags: ['slow'] } });
    const updated = await api('PUT', `/integrations/${listed.id}`, {
      name: 'Null lists',
      template_id: templateId,
      auth_method: 'none',
      task_params: { params: { limit: null } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(204);
    expect((await api('GET', `/integrations/${listed.id}`)).body).toMatchObject({ task_params: { params: {} } });
    expect(
      (await api('POST', '/integrations', { name: 'x', template_id: templateId, auth_method: 'nonee' })).body,
    ).toMatchObject({
      error: 'Unknown authentication method',
    });
  });

  it('parses the body of a call only once the caller is let in', async () => {
    const integration = await createIntegration({
      name: 'Parsed after authentication',
      auth_method: 'gitlab',
      auth_secret_id: secretKeyId,
    });
    await addMatcher(integration.id, { name: 'branch', ...jsonBodyMatcher('ref', 'refs/heads/main') });
    const alias = await addAlias(integration.id);
    const body = JSON.stringify({ ref: 'refs/heads/main', filler: 'x'.repeat(1000) });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const parsesOfBody = () => parse.mock.calls.filter(([text]) => text === body).length;
      for (const headers of [{}, { 'X-Gitlab-Token': `${HOOK_SECRET}x` }] as Record<string, string>[])
        expect(startedTaskId(await hook(alias, { body, headers }))).toBeUndefined();
      expect(parsesOfBody()).toBe(0);
      expect(startedTaskId(await hook(alias, { body, headers: { 'X-Gitlab-Token': HOOK_SECRET } }))).toBeDefined();
      expect(parsesOfBody()).toBe(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('starts a task only when every matcher matches, for each kind of matcher', async () => {
    const push = JSON.stringify({
      ref: 'refs/heads/main',
      repository: { name: 'gantry', stars: 42, tags: ['a', 'b'] },
      ok: true,
    });
    const other = JSON.stringify({
      ref: 'refs/heads/feature',
      repository: { name: 'other', stars: 7, tags: [] },
      ok: false,
    });
    interface MatcherCase {
      name: string;
      matcher: Record<string, unknown>;
      fires: string[];
      silent: string[];
      headers?: (payload: string) => Record<string, string>;
    }
    /** A case of a JSON body matcher: by default it fires on the push and stays silent on the other payload. */
    const jsonBodyCase = (
      name: string,
      matcher: Record<string, unknown>,
      fires = [push],
      silent = [other],
    ): MatcherCase => ({ name, matcher, fires, silent });
    const cases: MatcherCase[] = [
      jsonBodyCase('json equals', jsonBodyMatcher('ref', 'refs/heads/main', 'equals'), [push], [other, 'not json']),
      jsonBodyCase('json number', jsonBodyMatcher('repository.stars', '42', 'equals')),
      jsonBodyCase('json array index', jsonBodyMatcher('repository.tags.1', 'b', 'equals')),
      jsonBodyCase('json unequals', jsonBodyMatcher('repository.name', 'gantry', 'unequals'), [other], [push]),
      jsonBodyCase('json contains', jsonBodyMatcher('ref', 'heads/ma', 'contains')),
      jsonBodyCase('json boolean', jsonBodyMatcher('ok', 'true', 'equals')),
      {
        name: 'string body',
        matcher: { match_type: 'body', body_data_type: 'string', method: 'contains', value: '"stars":42' },
        fires: [push],
        silent: [other],
      },
      {
        name: 'string body equals',
        matcher: { match_type: 'body', body_data_type: 'string', method: 'equals', value: 'deploy now' },
        fires: ['deploy now'],
        silent: ['deploy later'],
      },
      {
        name: 'header',
        matcher: { match_type: 'header', key: 'X-GitHub-Event', method: 'equals', value: 'push' },
        fires: ['{"event":"push"}'],
        silent: ['{"event":"ping"}'],
        headers: (payload) => ({ 'x-github-event': (JSON.parse(payload) as { event: string }).event }),
      },
    ];
    for (const c of cases) {
      const integration = await createIntegration({ name: `Matcher ${c.name}` });
      await addMatcher(integration.id, { name: c.name, ...c.matcher });
      const alias = await addAlias(integration.id);
      const start = async (payload: string) =>
        startedTaskId(
          await hook(alias, { body: payload, headers: { 'content-type': 'text/plain', ...c.headers?.(payload) } }),
        );
      for (const payload of c.fires) expect(await start(payload), `${c.name} fires on ${payload}`).toBeDefined();
      for (const payload of c.silent)
        expect(await start(payload), `${c.name} stays silent on ${payload}`).toBeUndefined();
    }
    expect(await lastEvents()).toContainEqual(
      expect.stringContaining('started nothing: matcher "header" did not match'),
    );

    // A value nested deeper than JSON.stringify can recurse counts as missing: no 500 for anyone who can post.
    const nested = await createIntegration({ name: 'Deeply nested' });
    await addMatcher(nested.id, { name: 'deep', ...jsonBodyMatcher('ref', '[', 'contains') });
    const depth = 400_000;
    const deep = `{"ref":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(startedTaskId(await hook(await addAlias(nested.id), { body: deep }))).toBeUndefined();

    const both = await createIntegration({ name: 'Two matchers' });
    await addMatcher(both.id, { name: 'branch', ...jsonBodyMatcher('ref', 'refs/heads/main') });
    await addMatcher(both.id, { name: 'repo', ...jsonBodyMatcher('repository.name', 'other') });
    expect(startedTaskId(await hook(await addAlias(both.id), { body: push }))).toBeUndefined();
  });

  it('puts extracted values into the task environment, over the stored task parameters, and runs the template with them', async () => {
    const integration = await createIntegration({
      name: 'Extracting',
      task_params: { environment: '{"ref":"default","stage":"prod"}', message: 'pushed', params: { debug: false } },
    });
    await addValue(integration.id, {
      name: 'ref',
      value_source: 'body',
      body_data_type: 'json',
      key: 'ref',
      variable: 'ref',
    });
    await addValue(integration.id, {
      name: 'sha',
      value_source: 'body',
      body_data_type: 'json',
      key: 'head_commit.id',
      variable: 'sha',
    });
    await addValue(integration.id, { name: 'event', value_source: 'header', key: 'X-GitHub-Event', variable: 'event' });
    await addValue(integration.id, {
      name: 'missing',
      value_source: 'body',
      body_data_type: 'json',
      key: 'no.such.key',
      variable: 'missing',
    });
    await addValue(integration.id, {
      name: 'origin',
      value_source: 'header',
      key: 'X-Origin',
      variable: 'origin',
      variable_type: 'task',
    });
    const alias = await addAlias(integration.id);

    const response = await hook(alias, {
      body: JSON.stringify({ ref: 'refs/heads/main', head_commit: { id: 'abc123' } }),
      headers: { 'X-GitHub-Event': 'push', 'X-Origin': 'ci' },
    });
    const taskId = startedTaskId(response);
    expect(response.headers).toMatchObject({
      'x-gantry-integration-id': String(integration.id),
      'x-gantry-template-id': String(templateId),
      'x-gantry-project-id': String(p.projectId),
    });
    const task = await p.waitForStatus(taskId ?? 0, ['success', 'error']);
    expect(task.status).toBe('success');
    expect(JSON.parse(String(task.environment))).toEqual({
      ref: 'refs/heads/main',
      stage: 'prod',
      sha: 'abc123',
      event: 'push',
    });
    expect(task).toMatchObject({ message: 'pushed', params: { debug: false, origin: 'ci' } });
    const output = (await p.output(taskId ?? 0)).join('\n');
    expect(output).toContain('hook args: ');
    for (const pair of ['ref=refs/heads/main', 'stage=prod', 'sha=abc123', 'event=push'])
      expect(output).toContain(pair);
    expect(output).not.toContain('missing=');
  });

  it("starts no Ansible task with a caller's value holding a template expression, however deep, and logs why", async () => {
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: { name: 'hook hosts', type: 'static', inventory: 'localhost', ssh_key_id: p.noneKeyId },
    });
    expect(inventory.status, inventory.text).toBe(201);
    const ansibleTemplate = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: (inventory.body as { id: number }).id,
    });
    const integration = await createIntegration({ name: 'Ansible hook', template_id: ansibleTemplate });
    await addValue(integration.id, {
      name: 'note',
      value_source: 'body',
      body_data_type: 'json',
      key: 'note',
      variable: 'note',
    });
    const alias = await addAlias(integration.id);
    for (const note of [
      "{{ lookup('pipe', 'id') }}",
      { nested: ['ok', "{% for x in range(1) %}{{ lookup('pipe','id') }}{% endfor %}"] },
      { '{{ 7*7 }}': 'key' },
    ]) {
      const response = await hook(alias, { body: JSON.stringify({ note }) });
      expect(startedTaskId(response), JSON.stringify(note)).toBeUndefined();
    }
    expect(
      (await lastEvents()).some(
        (e) =>
          e.startsWith('Webhook call for integration Ansible hook started nothing') &&
          e.includes('template expression'),
      ),
    ).toBe(true);
    expect(startedTaskId(await hook(alias, { body: JSON.stringify({ note: 'plain release notes' }) }))).toBeDefined();
  });

  it("maps a caller's values onto task parameters as the task API takes them, and starts nothing it would refuse", async () => {
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: { name: 'param hosts', type: 'static', inventory: 'localhost', ssh_key_id: p.noneKeyId },
    });
    const ansibleTemplate = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: (inventory.body as { id: number }).id,
    });
    const integration = await createIntegration({ name: 'Param hook', template_id: ansibleTemplate });
    for (const name of ['limit', 'debug'])
      await addValue(integration.id, {
        name,
        value_source: 'body',
        body_data_type: 'json',
        key: name,
        variable: name,
        variable_type: 'task',
      });
    const alias = await addAlias(integration.id);
    const taskId = startedTaskId(await hook(alias, { body: JSON.stringify({ limit: 'localhost', debug: 'true' }) }));
    const task = (await t.request('GET', `${p.base}/tasks/${taskId}`, { as: t.adminCookie })).body;
    expect(task).toMatchObject({ params: { limit: ['localhost'], debug: true } });
    for (const [body, why] of [
      [{ limit: 'localhost @/etc/passwd' }, 'cannot read hosts from a file'],
      [{ debug: 'maybe' }, 'takes true or false'],
    ] as const) {
      expect(startedTaskId(await hook(alias, { body: JSON.stringify(body) })), JSON.stringify(body)).toBeUndefined();
      expect(
        (await lastEvents()).some((e) => e.startsWith('Webhook call for integration Param hook') && e.includes(why)),
        why,
      ).toBe(true);
    }
  });

  it("starts no task with a caller's value holding a NUL character or half of a surrogate pair, and logs why", async () => {
    /** An integration of the template with one value read from the body, and its alias. */
    const aliasReading = async (name: string, value: Record<string, unknown>) => {
      const integration = await createIntegration({ name, template_id: templateId });
      await addValue(integration.id, { name: 'body value', value_source: 'body', ...value });
      return addAlias(integration.id);
    };
    const rawAlias = await aliasReading('Raw hook', { body_data_type: 'string', variable: 'BODY' });
    const jsonAlias = await aliasReading('Json hook', { body_data_type: 'json', key: 'x', variable: 'X' });
    expect(startedTaskId(await hook(rawAlias, { body: 'a\u0000b' }))).toBeUndefined();
    expect(startedTaskId(await hook(jsonAlias, { body: '{"x":"half \\udc00"}' }))).toBeUndefined();
    const events = await lastEvents();
    expect(
      events.some((e) => e.startsWith('Webhook call for integration Raw hook started nothing') && e.includes('NUL')),
    ).toBe(true);
    expect(events.some((e) => e.startsWith('Webhook call for integration Json hook') && e.includes('surrogate'))).toBe(
      true,
    );
    expect(startedTaskId(await hook(rawAlias, { body: 'plain text' }))).toBeDefined();
    // A megabyte of control characters would take six megabytes once encoded: beyond the task API's bound.
    expect(
      startedTaskId(
        await hook(rawAlias, { body: '\u0001'.repeat(1024 * 1024 - 16), headers: { 'content-type': 'text/plain' } }),
      ),
    ).toBeUndefined();
    expect(
      (await lastEvents()).some(
        (e) => e.startsWith('Webhook call for integration Raw hook') && e.includes('longer than'),
      ),
    ).toBe(true);
  });

  it('serves every matching searchable integration of the project through a project-wide alias', async () => {
    const api2 = await createProjectFixture(t, { 'hook.sh': 'echo "project hook $*"\n' });
    const template = await api2.createTemplate({ playbook: 'hook.sh', allow_parallel_tasks: true });
    const post = (path: string, body?: unknown) =>
      t.request('POST', `${api2.base}${path}`, { as: t.adminCookie, ...(body !== undefined ? { body } : {}) });
    const make = async (name: string, searchable: boolean, matcher?: Record<string, unknown>) => {
      const integration = (await post('/integrations', { name, template_id: template, searchable }))
        .body as Integration;
      if (matcher)
        expect(
          (await post(`/integrations/${integration.id}/matchers`, { name: 'm', method: 'equals', ...matcher })).status,
        ).toBe(200);
      return integration;
    };
    const pushes = await make('Pushes', true, { match_type: 'header', key: 'X-Event', value: 'push' });
    const releases = await make('Releases', true, { match_type: 'header', key: 'X-Event', value: 'release' });
    const hidden = await make('Not searchable', false, { match_type: 'header', key: 'X-Event', value: 'push' });
    await make('Searchable without matchers', true);
    const projectAlias = (await post('/integrations/aliases')).body as { url: string };
    const alias = projectAlias.url.slice(projectAlias.url.lastIndexOf('/') + 1);

    const tasksBy = async () => {
      const tasks = (await t.request('GET', `${api2.base}/tasks`, { as: t.adminCookie })).body as {
        integration_id: number | null;
      }[];
      return tasks.map((task) => task.integration_id);
    };
    expect(startedTaskId(await hook(alias, { body: '{}', headers: { 'X-Event': 'push' } }))).toBeDefined();
    expect(await tasksBy()).toEqual([pushes.id]);
    expect(startedTaskId(await hook(alias, { body: '{}', headers: { 'X-Event': 'release' } }))).toBeDefined();
    expect((await tasksBy()).sort()).toEqual([pushes.id, releases.id].sort());
    expect(startedTaskId(await hook(alias, { body: '{}', headers: { 'X-Event': 'tag' } }))).toBeUndefined();
    expect(await tasksBy()).not.toContain(hidden.id);
    expect(await tasksBy()).toHaveLength(2);

    // The project is deleted with its integrations and aliases; the alias then leads nowhere.
    expect((await t.request('DELETE', api2.base, { as: t.adminCookie })).status).toBe(204);
    expect((await hook(alias, { body: '{}', headers: { 'X-Event': 'push' } })).status).toBe(404);
  });

  it('answers GET and OPTIONS like POST, 404 for unknown aliases and 413 for oversize payloads', async () => {
    const integration = await createIntegration({ name: 'Methods' });
    const alias = await addAlias(integration.id);
    expect(startedTaskId(await hook(alias, { method: 'GET' }))).toBeDefined();
    expect(startedTaskId(await hook(alias, { method: 'OPTIONS' }))).toBeDefined();
    expect((await hook(alias, { method: 'HEAD' })).headers['x-gantry-task-id']).toBeUndefined();
    expect(
      startedTaskId(await hook(alias, { body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } })),
    ).toBeDefined();

    const unknown = await hook('no-such-alias-0000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
    expect((await hook('bad%20alias!')).status).toBe(404);
    expect((await hook('x'.repeat(80))).status).toBe(404);

    const oversize = await hook(alias, { body: JSON.stringify({ blob: 'x'.repeat(1024 * 1024) }) });
    expect(oversize.status).toBe(413);
    expect(oversize.body).toMatchObject({ code: 'payload_too_large' });
    // Broken JSON is not an error here: it is a payload that json matchers and extractors find nothing in.
    expect((await hook(alias, { body: '{"broken', headers: { 'content-type': 'application/json' } })).status).toBe(204);
  });

  it('a flood of failed calls logs only the first few of each minute', async () => {
    const integration = await createIntegration({
      name: 'Flooded',
      auth_method: 'token',
      auth_header: 'X-Token',
      auth_secret_id: secretKeyId,
    });
    const alias = await addAlias(integration.id);
    for (let i = 0; i < 12; i++)
      expect(startedTaskId(await hook(alias, { body: '{}', headers: { 'x-token': `wrong-${i}` } }))).toBeUndefined();
    const logged = (await lastEvents()).filter((e) =>
      e.startsWith('Webhook call for integration Flooded started nothing: authentication failed'),
    );
    expect(logged).toHaveLength(5);
  });

  it('a flood of calls on a project-wide alias that finds no searchable integration logs only the first few of each minute', async () => {
    const project = (
      await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Nothing searchable' } })
    ).body as { id: number };
    const created = await t.request('POST', `/api/project/${project.id}/integrations/aliases`, { as: t.adminCookie });
    const url = (created.body as { url: string }).url;
    const alias = url.slice(url.lastIndexOf('/') + 1);
    for (let i = 0; i < 12; i++) expect(startedTaskId(await hook(alias, { body: '{}' }))).toBeUndefined();
    const events = (await t.request('GET', `/api/project/${project.id}/events/last`, { as: t.adminCookie })).body as {
      description: string;
      object_id: number | null;
    }[];
    const logged = events.filter((e) =>
      e.description.startsWith('Webhook call on a project-wide alias started nothing'),
    );
    expect(logged).toHaveLength(5);
    // A project-wide alias belongs to no integration: no event of it may point at one.
    const aliasEvents = events.filter((e) => e.description.startsWith('Project-wide integration alias'));
    expect(aliasEvents).toHaveLength(1);
    expect([...logged, ...aliasEvents].map((e) => e.object_id)).toEqual(Array(6).fill(null));
  });

  it('keeps the alias out of the request log', async () => {
    const integration = await createIntegration({ name: 'Logged' });
    const alias = await addAlias(integration.id);
    const lines: string[] = [];
    const logger: FastifyBaseLogger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const logged = Fastify({ loggerInstance: logger });
    registerErrorHandler(logged);
    await registerWebhookRoutes(logged, { webhooks: t.runtime.services.webhooks });
    try {
      const answered = await logged.inject({
        method: 'POST',
        url: `/api/integrations/${alias}?from=ci`,
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(answered.statusCode).toBe(204);
      expect(answered.headers['x-gantry-task-id']).toBeDefined();
      expect(
        (
          await logged.inject({
            method: 'POST',
            url: `/api/integrations/${alias}`,
            payload: 'x'.repeat(1024 * 1024 + 1),
          })
        ).statusCode,
      ).toBe(413);
    } finally {
      await logged.close();
    }
    const incoming = lines
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
      .filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.url)).toEqual(['/api/integrations/:alias', '/api/integrations/:alias']);
    expect(lines.join('\n')).not.toContain(alias);
  });

  it('logs why a call started nothing when the task cannot start', async () => {
    const surveyed = await p.createTemplate({
      name: 'Needs input',
      playbook: 'hook.sh',
      survey_vars: [{ name: 'target', title: 'Target', required: true }],
    });
    const integration = await createIntegration({ name: 'Missing input', template_id: surveyed });
    const response = await hook(await addAlias(integration.id), { body: '{}' });
    expect(startedTaskId(response)).toBeUndefined();
    expect(await lastEvents()).toContainEqual(
      expect.stringMatching(/^Webhook call for integration Missing input started nothing: the task could not start: /),
    );
  });

  it('verifies a GitHub signature over the exact bytes received through a real socket', async () => {
    const integration = await createIntegration({ name: 'Socket', auth_method: 'github', auth_secret_id: secretKeyId });
    await addValue(integration.id, {
      name: 'who',
      value_source: 'body',
      body_data_type: 'json',
      key: 'pusher.name',
      variable: 'who',
    });
    const alias = await addAlias(integration.id);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    // Whitespace and key order a JSON re-serialisation would change: the signature covers them.
    const body = '{ "pusher" : {"name":"Zoë"},\n "ref": "refs/heads/main" }';
    const url = `http://127.0.0.1:${port}/api/integrations/${alias}`;
    const send = (signature: string) =>
      fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-hub-signature-256': signature },
      });

    const rejected = await send(`sha256=${sign(body.replace(/\s+/g, ''))}`);
    expect(rejected.status).toBe(204);
    expect(rejected.headers.get('x-gantry-task-id')).toBeNull();
    const accepted = await send(`sha256=${sign(body)}`);
    expect(accepted.status).toBe(204);
    const taskId = Number(accepted.headers.get('x-gantry-task-id'));
    const task = await p.waitForStatus(taskId, ['success', 'error']);
    expect(JSON.parse(String(task.environment))).toEqual({ who: 'Zoë' });
  });
});
