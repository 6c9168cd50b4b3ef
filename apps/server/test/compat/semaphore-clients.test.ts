import { beforeAll, describe, expect, it } from 'vitest';
import { useProjectFixture } from '../task-fixture.ts';
import { ADMIN_LOGIN, ADMIN_PASSWORD, useTestApp } from '../test-app.ts';
import { listTestDialects } from '../test-databases.ts';

const dialects = await listTestDialects();

/** What `curl -H 'Content-Type: application/json' -H 'Accept: application/json'` sends with every call of Semaphore's API documentation. */
const CURL_JSON = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * The calls that Semaphore's own clients make, replayed exactly as they make them: the recipe of its
 * API documentation, a CI script with curl and a token, the Terraform provider's habits (trailing
 * slashes, DELETE with a JSON content type and no body) and Semaphore's web UI editing a template.
 */
describe.each(dialects)('Semaphore clients against Gantry (%s)', (dialect) => {
  let templateId: number;
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, { 'deploy.sh': 'echo deployed\n' });
  beforeAll(async () => {
    templateId = await p.createTemplate({ playbook: 'deploy.sh', name: 'Deploy' });
  });

  it('runs the API documentation recipe unchanged: sign in, create a token with an empty body, start a task with it, expire it by its value', async () => {
    const login = await t.request('POST', '/api/auth/login', {
      headers: CURL_JSON,
      body: { auth: ADMIN_LOGIN, password: ADMIN_PASSWORD },
    });
    expect(login.status).toBe(204);
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    expect((await t.request('GET', '/api/user/tokens', { headers: { ...CURL_JSON, cookie } })).status).toBe(200);
    const created = await t.request('POST', '/api/user/tokens', { headers: { ...CURL_JSON, cookie }, rawBody: '' });
    expect(created.status).toBe(201);
    const token = (created.body as { id: string }).id;
    t.secrets.add(token);
    const task = await t.request('POST', `/api/project/${p.projectId}/tasks`, {
      headers: { ...CURL_JSON, authorization: `Bearer ${token}` },
      rawBody: JSON.stringify({ template_id: templateId }),
    });
    expect(task.status).toBe(201);
    await p.waitForStatus((task.body as { id: number }).id, ['success']);
    const expired = await t.request('DELETE', `/api/user/tokens/${token}`, {
      headers: { ...CURL_JSON, authorization: `Bearer ${token}` },
      rawBody: '',
    });
    expect(expired.status).toBe(204);
    expect((await t.request('GET', '/api/projects', { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
  });

  it("serves a CI script: curl -d without a JSON content type starts a task, polling sees it end, its log records carry Semaphore's fields", async () => {
    const created = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, rawBody: '' });
    const token = (created.body as { id: string }).id;
    t.secrets.add(token);
    const started = await t.request('POST', `/api/project/${p.projectId}/tasks`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: JSON.stringify({ template_id: templateId, params: { dry_run: true } }),
    });
    expect(started.status, started.text).toBe(201);
    const taskId = (started.body as { id: number }).id;
    await p.waitForStatus(taskId, ['success']);
    const task = (
      await t.request('GET', `/api/project/${p.projectId}/tasks/${taskId}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).body as Record<string, unknown>;
    expect(task).toMatchObject({
      debug: false,
      dry_run: true,
      diff: false,
      limit: '',
      secret: '',
      params: { dry_run: true },
    });
    const output = (
      await t.request('GET', `/api/project/${p.projectId}/tasks/${taskId}/output`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).body as Record<string, unknown>[];
    expect(output.find((line) => line.output === 'deployed')).toMatchObject({
      task_id: taskId,
      task: '',
      output: 'deployed',
      time: expect.any(String),
    });
  });

  it('answers the Terraform provider: trailing slashes, and DELETE with a JSON content type and no body', async () => {
    const project = await t.request('POST', '/api/projects/', {
      headers: CURL_JSON,
      as: t.adminCookie,
      body: { name: 'Provider project' },
    });
    expect(project.status).toBe(201);
    const id = (project.body as { id: number }).id;
    expect((await t.request('GET', `/api/project/${id}/`, { as: t.adminCookie })).body).toMatchObject({
      id,
      name: 'Provider project',
    });
    const user = await t.createUser('provider-user');
    expect((await t.request('GET', `/api/users/${user.id}/`, { as: t.adminCookie })).body).toMatchObject({
      id: user.id,
      username: 'provider-user',
    });
    expect(
      (await t.request('DELETE', `/api/project/${id}/`, { headers: CURL_JSON, as: t.adminCookie, rawBody: '' })).status,
    ).toBe(204);
    expect(
      (await t.request('DELETE', `/api/users/${user.id}/`, { headers: CURL_JSON, as: t.adminCookie, rawBody: '' }))
        .status,
    ).toBe(204);
  });

  it("keeps a template's timed schedule when Semaphore's web UI saves the template: its schedules call lists only commit checks", async () => {
    const plain = await t.request('POST', `/api/project/${p.projectId}/schedules`, {
      as: t.adminCookie,
      body: { name: 'Nightly', template_id: templateId, cron_format: '0 3 * * *', active: true },
    });
    expect(plain.status).toBe(201);
    const listed = await t.request('GET', `/api/project/${p.projectId}/templates/${templateId}/schedules`, {
      as: t.adminCookie,
    });
    expect(listed.body).toEqual([]);
    const check = await t.request('POST', `/api/project/${p.projectId}/schedules`, {
      as: t.adminCookie,
      body: {
        name: 'On commit',
        template_id: templateId,
        cron_format: '*/5 * * * *',
        repository_id: p.repositoryId,
        active: true,
      },
    });
    expect(check.status).toBe(201);
    const checks = (
      await t.request('GET', `/api/project/${p.projectId}/templates/${templateId}/schedules`, { as: t.adminCookie })
    ).body as { id: number }[];
    expect(checks.map((s) => s.id)).toEqual([(check.body as { id: number }).id]);
    const all = (await t.request('GET', `/api/project/${p.projectId}/schedules`, { as: t.adminCookie })).body as {
      id: number;
    }[];
    expect(all.map((s) => s.id)).toContain((plain.body as { id: number }).id);
  });

  it("takes a template's variable group from Semaphore 2.16's environment_ids list and refuses a second group", async () => {
    const body = {
      name: 'Listed group',
      app: 'bash',
      playbook: 'deploy.sh',
      repository_id: p.repositoryId,
      environment_ids: [p.emptyEnvironmentId],
    };
    const created = await t.request('POST', `/api/project/${p.projectId}/templates`, { as: t.adminCookie, body });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      environment_id: p.emptyEnvironmentId,
      environment_ids: [p.emptyEnvironmentId],
    });
    const other = await t.request('POST', `/api/project/${p.projectId}/environment`, {
      as: t.adminCookie,
      body: { name: 'Second group', json: '{}', env: '{}' },
    });
    const two = await t.request('POST', `/api/project/${p.projectId}/templates`, {
      as: t.adminCookie,
      body: { ...body, name: 'Two groups', environment_ids: [p.emptyEnvironmentId, (other.body as { id: number }).id] },
    });
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({ error: 'A template has one variable group' });
  });

  it('refuses a one-time schedule of Semaphore 2025 (type run_at) with a clear 400, and sends every schedule as a cron one', async () => {
    const oneTime = await t.request('POST', `/api/project/${p.projectId}/schedules`, {
      as: t.adminCookie,
      body: {
        name: 'Once',
        template_id: templateId,
        type: 'run_at',
        run_at: '2026-12-01T10:00:00Z',
        cron_format: '',
        active: true,
      },
    });
    expect(oneTime.status).toBe(400);
    expect(oneTime.body).toMatchObject({
      error: 'One-time schedules (type run_at) are not supported; use a cron expression',
    });
    const cron = await t.request('POST', `/api/project/${p.projectId}/schedules`, {
      as: t.adminCookie,
      body: { name: 'Cron', template_id: templateId, type: '', cron_format: '0 5 * * *' },
    });
    expect(cron.status, cron.text).toBe(201);
    expect(cron.body).toMatchObject({ type: '', run_at: null, delete_after_run: false, active: false });
  });

  it('ignores CLI arguments a template does not allow, as Semaphore does, and says so in the task log', async () => {
    const started = await t.request('POST', `/api/project/${p.projectId}/tasks`, {
      as: t.adminCookie,
      body: { template_id: templateId, arguments: '["--extra"]' },
    });
    expect(started.status).toBe(201);
    const taskId = (started.body as { id: number }).id;
    await p.waitForStatus(taskId, ['success']);
    expect((await p.output(taskId)).join('\n')).toMatch(/ignored/i);
  });

  it("sends the fields Semaphore's clients read: keys' override_secret, variable groups' password and secrets in the list, events' integration_id", async () => {
    const key = (await t.request('GET', `/api/project/${p.projectId}/keys/${p.noneKeyId}`, { as: t.adminCookie })).body;
    expect(key).toMatchObject({ override_secret: false });
    await p.createVariableGroup('With secret', [{ type: 'var', name: 'token', secret: 'compat-Secret-42' }]);
    t.secrets.add('compat-Secret-42');
    const listed = (await t.request('GET', `/api/project/${p.projectId}/environment`, { as: t.adminCookie }))
      .body as Record<string, unknown>[];
    expect(listed.find((g) => g.name === 'With secret')).toMatchObject({
      password: null,
      secrets: [{ name: 'token', type: 'var', secret: '' }],
    });
    const integration = await t.request('POST', `/api/project/${p.projectId}/integrations`, {
      as: t.adminCookie,
      body: { name: 'Compat hook', template_id: templateId },
    });
    const integrationId = (integration.body as { id: number }).id;
    const events = (await t.request('GET', `/api/project/${p.projectId}/events`, { as: t.adminCookie })).body as Record<
      string,
      unknown
    >[];
    expect(events.every((event) => 'integration_id' in event)).toBe(true);
    expect(
      events.find((event) => event.object_type === 'integration' && event.object_id === integrationId),
    ).toMatchObject({ integration_id: integrationId });
  });

  it("keeps Semaphore's single-value (string) keys: created as Semaphore's clients send them, usable as a webhook secret, refused clearly where a login is needed", async () => {
    const secret = 'compat-String-Value-77';
    t.secrets.add(secret);
    const created = await t.request('POST', `/api/project/${p.projectId}/keys`, {
      headers: CURL_JSON,
      as: t.adminCookie,
      body: { name: 'Hook secret', type: 'string', string: secret },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Hook secret', type: 'string', empty: false, string: '' });
    const keyId = (created.body as { id: number }).id;
    const listed = (await t.request('GET', `/api/project/${p.projectId}/keys`, { as: t.adminCookie })).body as {
      id: number;
      type: string;
    }[];
    expect(listed.find((k) => k.id === keyId)?.type).toBe('string');
    const empty = await t.request('POST', `/api/project/${p.projectId}/keys`, {
      as: t.adminCookie,
      body: { name: 'No value', type: 'string' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'Value is required' });

    const asGitKey = await t.request('POST', `/api/project/${p.projectId}/repositories`, {
      as: t.adminCookie,
      body: { name: 'x', git_url: 'https://example.com/x.git', git_branch: 'main', ssh_key_id: keyId },
    });
    expect(asGitKey.status).toBe(400);
    expect((asGitKey.body as { error: string }).error).toMatch(/single value/);
    const asBecomeKey = await t.request('POST', `/api/project/${p.projectId}/inventory`, {
      as: t.adminCookie,
      body: { name: 'x', type: 'static', inventory: 'localhost', ssh_key_id: p.noneKeyId, become_key_id: keyId },
    });
    expect(asBecomeKey.status).toBe(400);

    const integration = await t.request('POST', `/api/project/${p.projectId}/integrations`, {
      as: t.adminCookie,
      body: {
        name: 'String secret hook',
        template_id: templateId,
        auth_method: 'token',
        auth_header: 'X-Token',
        auth_secret_id: keyId,
      },
    });
    expect(integration.status, integration.text).toBe(201);
    const aliasUrl = (
      (
        await t.request(
          'POST',
          `/api/project/${p.projectId}/integrations/${(integration.body as { id: number }).id}/aliases`,
          { as: t.adminCookie },
        )
      ).body as { url: string }
    ).url;
    const path = new URL(aliasUrl).pathname;
    const refused = await t.request('POST', path, { headers: { 'x-token': 'wrong' }, rawBody: '{}' });
    expect(refused.headers['x-gantry-task-id']).toBeUndefined();
    const accepted = await t.request('POST', path, { headers: { 'x-token': secret }, rawBody: '{}' });
    expect(accepted.status).toBe(204);
    await p.waitForStatus(Number(accepted.headers['x-gantry-task-id']), ['success']);

    // A key in use keeps a type its users accept: what the API refuses on creation it refuses on a type change too.
    const loginKeyToString = await t.request('PUT', `${p.base}/keys/${p.noneKeyId}`, {
      as: t.adminCookie,
      body: { name: 'None', type: 'string', override_secret: true, string: 'compat-String-Value-78' },
    });
    expect(loginKeyToString.status).toBe(400);
    expect((loginKeyToString.body as { error: string }).error).toMatch(/used to log in/);
    const secretToNone = await t.request('PUT', `${p.base}/keys/${keyId}`, {
      as: t.adminCookie,
      body: { name: 'Hook secret', type: 'none' },
    });
    expect(secretToNone.status).toBe(400);
    expect((secretToNone.body as { error: string }).error).toMatch(/used as a password/);
    const keys = (await t.request('GET', `${p.base}/keys`, { as: t.adminCookie })).body as {
      id: number;
      type: string;
    }[];
    expect([p.noneKeyId, keyId].map((id) => keys.find((k) => k.id === id)?.type)).toEqual(['none', 'string']);
  });

  it("sends app icons without the mdi- prefix and monochrome colours empty, as Semaphore's web UI expects", async () => {
    const apps = (await t.request('GET', '/api/apps', { as: t.adminCookie })).body as { id: string; icon: string }[];
    expect(apps.find((app) => app.id === 'python')?.icon).toBe('language-python');
    expect(apps.every((app) => !app.icon.startsWith('mdi-'))).toBe(true);
    // Semaphore's UI paints `color` in both themes and follows the theme only for an empty one.
    expect(apps.find((app) => app.id === 'ansible')).toMatchObject({
      title: 'Ansible',
      icon: 'ansible',
      color: '',
      dark_color: '',
    });
    expect(apps.find((app) => app.id === 'terraform')).toMatchObject({ icon: 'terraform', color: '#7b42bc' });
    const updated = await t.request('PUT', '/api/apps/bash', { as: t.adminCookie, body: { icon: 'mdi-console' } });
    expect(updated.status).toBeLessThan(300);
    expect(
      ((await t.request('GET', '/api/apps', { as: t.adminCookie })).body as { id: string; icon: string }[]).find(
        (app) => app.id === 'bash',
      )?.icon,
    ).toBe('console');
  });
});
