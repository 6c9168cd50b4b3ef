import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from '../task-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { listTestDialects } from '../test-databases.ts';
import { SEMAPHORE_TYPE_NAMES, explainFieldMismatches } from './semaphore-fields.ts';

const dialects = await listTestDialects();

type Json = Record<string, unknown>;

/**
 * Walks the response types of Semaphore's API documentation: each main GET endpoint of Gantry answers
 * with every field Semaphore sends, in the JSON type Semaphore's clients decode (a go-swagger client fails
 * on a string where it expects an integer).
 */
describe.each(dialects)("responses carry every field of Semaphore's API documentation (%s)", (dialect) => {
  let p: ProjectFixture;
  const responses = new Map<string, unknown[]>();
  const get = async (url: string) => {
    const response = await t.request('GET', url, { as: t.adminCookie });
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    return response.body;
  };
  const post = async (url: string, body: Json) => {
    const response = await t.request('POST', url, { as: t.adminCookie, body });
    expect(response.status, `${url}: ${response.text}`).toBeLessThan(300);
    return response.body as Json;
  };
  const collect = (typeName: string, ...bodies: unknown[]) =>
    responses.set(typeName, [...(responses.get(typeName) ?? []), ...bodies]);
  /** Collects one resource as its own URL answers it and the list at `listUrl` holding it. */
  const collectOneAndList = async (typeName: string, listUrl: string, id: unknown) =>
    collect(typeName, await get(`${listUrl}/${String(id)}`), ...((await get(listUrl)) as unknown[]));

  const t = useTestApp(dialect);
  beforeAll(async () => {
    p = await createProjectFixture(t, { 'deploy.sh': 'echo deployed\n' });
    const base = p.base;
    const vaultKey = await post(`${base}/keys`, {
      name: 'Vault',
      type: 'login_password',
      login_password: { login: '', password: 'fields-Vault-Pass-1' },
    });
    t.secrets.add('fields-Vault-Pass-1');
    const view = await post(`${base}/views`, { title: 'Ops', position: 0 });
    const inventory = await post(`${base}/inventory`, {
      name: 'Hosts',
      type: 'static',
      inventory: 'localhost',
      ssh_key_id: p.noneKeyId,
    });
    const groupId = await p.createVariableGroup('Vars', [{ type: 'var', name: 'token', secret: 'fields-Secret-2' }]);
    t.secrets.add('fields-Secret-2');
    const templateId = await p.createTemplate({
      name: 'Deploy',
      playbook: 'deploy.sh',
      view_id: view.id,
      inventory_id: inventory.id,
      survey_vars: [{ name: 'region', title: 'Region', type: '', required: false, description: '', values: [] }],
      vaults: [{ name: 'prod', type: 'password', vault_key_id: vaultKey.id }],
    });
    const schedule = await post(`${base}/schedules`, {
      name: 'Nightly',
      template_id: templateId,
      cron_format: '0 3 * * *',
      active: true,
    });
    const integration = await post(`${base}/integrations`, { name: 'Hook', template_id: templateId });
    await post(`${base}/integrations/${String(integration.id)}/matchers`, {
      name: 'm',
      match_type: 'header',
      method: 'equals',
      key: 'X-Event',
      value: 'push',
    });
    await post(`${base}/integrations/${String(integration.id)}/values`, {
      name: 'v',
      value_source: 'header',
      key: 'X-Ref',
      variable: 'REF',
    });
    await post(`${base}/integrations/${String(integration.id)}/aliases`, {});
    const taskId = await p.runTask(templateId);
    await p.waitForStatus(taskId, ['success']);
    await post('/api/user/tokens', {}).then((token) => t.secrets.add(String(token.id)));
    const user = await t.createUser('fields-user');
    await post(`${base}/users`, { user_id: user.id, role: 'task_runner' });

    const template = (await get(`${base}/templates/${templateId}`)) as Json;
    const environment = (await get(`${base}/environment/${groupId}`)) as Json;
    collect('User', await get(`/api/users/${user.id}`), ...((await get('/api/users')) as unknown[]));
    collect('CurrentUser', await get('/api/user'));
    collect('Project', await get(base), ...((await get('/api/projects')) as unknown[]));
    collect('ProjectUser', ...((await get(`${base}/users`)) as unknown[]));
    collect('APIToken', ...((await get('/api/user/tokens')) as unknown[]));
    await collectOneAndList('AccessKey', `${base}/keys`, vaultKey.id);
    collect('Environment', environment, ...((await get(`${base}/environment`)) as unknown[]));
    collect('EnvironmentSecret', ...(environment.secrets as unknown[]));
    await collectOneAndList('Inventory', `${base}/inventory`, inventory.id);
    await collectOneAndList('Repository', `${base}/repositories`, p.repositoryId);
    collect('Template', template, ...((await get(`${base}/templates`)) as unknown[]));
    collect('TemplateVault', ...(template.vaults as unknown[]));
    collect('TemplateSurveyVar', ...(template.survey_vars as unknown[]));
    collect(
      'Task',
      await get(`${base}/tasks/${taskId}`),
      ...((await get(`${base}/tasks`)) as unknown[]),
      ...((await get(`${base}/tasks/last`)) as unknown[]),
    );
    collect('TaskOutput', ...((await get(`${base}/tasks/${taskId}/output`)) as unknown[]));
    await collectOneAndList('Schedule', `${base}/schedules`, schedule.id);
    await collectOneAndList('View', `${base}/views`, view.id);
    await collectOneAndList('Integration', `${base}/integrations`, integration.id);
    collect(
      'IntegrationAlias',
      ...((await get(`${base}/integrations/${String(integration.id)}/aliases`)) as unknown[]),
    );
    collect(
      'IntegrationMatcher',
      ...((await get(`${base}/integrations/${String(integration.id)}/matchers`)) as unknown[]),
    );
    collect(
      'IntegrationExtractValue',
      ...((await get(`${base}/integrations/${String(integration.id)}/values`)) as unknown[]),
    );
    collect(
      'Event',
      ...((await get(`${base}/events`)) as unknown[]),
      ...((await get('/api/events/last')) as unknown[]),
    );
    collect('Info', await get('/api/info'));
    collect('App', ...((await get('/api/apps')) as unknown[]));
  });

  it('answers every response type of the documentation at least once', () => {
    expect(SEMAPHORE_TYPE_NAMES.filter((name) => (responses.get(name) ?? []).length === 0)).toEqual([]);
  });

  it('sends every field Semaphore sends, in the JSON type Semaphore sends it', () => {
    const problems = new Set<string>();
    for (const [typeName, bodies] of responses)
      for (const body of bodies)
        for (const problem of explainFieldMismatches(typeName, body, { requireAll: true })) problems.add(problem);
    expect([...problems].sort()).toEqual([]);
  });
});
