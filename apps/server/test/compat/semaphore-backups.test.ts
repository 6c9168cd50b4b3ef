import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/secrets/secret-box.ts';
import { loadEncryptionKey } from '../../src/secrets/encryption-key.ts';
import { useTestApp } from '../test-app.ts';
import { listTestDialects } from '../test-databases.ts';

const dialects = await listTestDialects();

type Json = Record<string, unknown>;

/**
 * Backups as each Semaphore generation writes them, written field by field after Semaphore's own
 * backup structs (services/project/types.go and the db structs they embed), never from Gantry's export:
 * - 2024-mid (2.10): encoding/json of flat structs; views carry `name`, survey_vars is JSON text,
 *   a template's vault is its single `vault_key`, its schedule is its `cron`.
 * - 2024-late (2.11): db/backup tags, nil pointers left out; integrations, vaults[], top-level schedules.
 * - 2025 (2.13-2.16): keys with owner and secret storage, secret_storages, environments[] on templates,
 *   typed vaults, task_params on templates, schedules and integrations, one-time schedules, roles,
 *   runners, proxies, alerts and workflows sections.
 */
const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

/** The ansible template every fixture holds, as it is restored whichever Semaphore wrote it; each test adds the rest. */
const DEPLOY_SITE_TEMPLATE = {
  name: 'Deploy site',
  app: 'ansible',
  type: '',
  playbook: 'site.yml',
  description: 'Rolls the site out',
  autorun: false,
  start_version: null,
  repository: 'Playbooks',
  inventory: 'Production hosts',
  environment: 'Production vars',
  build_template: null,
};

describe.each(dialects)('Semaphore backups restore whole (%s)', (dialect) => {
  let token: string;
  const t = useTestApp(dialect);
  beforeAll(async () => {
    token = ((await t.request('POST', '/api/user/tokens', { as: t.adminCookie, rawBody: '' })).body as { id: string })
      .id;
    t.secrets.add(token);
  });

  const get = async (url: string) => {
    const response = await t.request('GET', url, { as: t.adminCookie });
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    return response.body as Json[];
  };

  /** Restores a document as a script uploads the file (curl with a token): whatever the content type says. */
  async function restore(document: string, contentType = 'application/json') {
    const response = await t.request('POST', '/api/projects/restore', {
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      rawBody: document,
    });
    expect(response.status, response.text).toBe(200);
    const projectId = (response.body as { id: number }).id;
    const base = `/api/project/${projectId}`;
    const [keys, repositories, inventories, environments, views, templates, schedules, integrations] =
      await Promise.all(
        ['keys', 'repositories', 'inventory', 'environment', 'views', 'templates', 'schedules', 'integrations'].map(
          (path) => get(`${base}/${path}`),
        ),
      );
    const nameOf = (list: Json[] | undefined, id: unknown, field = 'name') =>
      (id ? list?.find((item) => item.id === id)?.[field] : null) ?? null;
    const project = (await t.request('GET', base, { as: t.adminCookie })).body as Json;
    return {
      projectId,
      project,
      keys: keys?.map((k) => [k.name, k.type]).sort(),
      repositories: repositories?.map((r) => ({
        name: r.name,
        git_url: r.git_url,
        git_branch: r.git_branch,
        key: nameOf(keys, r.ssh_key_id),
      })),
      inventories: inventories
        ?.map((i) => ({
          name: i.name,
          type: i.type,
          inventory: i.inventory,
          key: nameOf(keys, i.ssh_key_id),
          become: nameOf(keys, i.become_key_id),
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      environments: environments?.map((e) => ({ name: e.name, json: e.json, env: e.env })),
      views: views?.map((v) => [v.title, v.position]),
      templates: templates
        ?.map((tpl) => ({
          name: tpl.name,
          app: tpl.app,
          type: tpl.type,
          playbook: tpl.playbook,
          description: tpl.description,
          arguments: tpl.arguments,
          allow_override_args_in_task: tpl.allow_override_args_in_task,
          allow_override_branch_in_task: tpl.allow_override_branch_in_task,
          allow_parallel_tasks: tpl.allow_parallel_tasks,
          suppress_success_alerts: tpl.suppress_success_alerts,
          autorun: tpl.autorun,
          start_version: tpl.start_version,
          git_branch: tpl.git_branch,
          repository: nameOf(repositories, tpl.repository_id),
          inventory: nameOf(inventories, tpl.inventory_id),
          environment: nameOf(environments, tpl.environment_id),
          view: nameOf(views, tpl.view_id, 'title'),
          build_template: nameOf(templates, tpl.build_template_id),
          survey_vars: tpl.survey_vars,
          // Null on the wire when none were set, as Semaphore sends it.
          task_params: tpl.task_params ?? {},
          vaults: (tpl.vaults as Json[]).map((v) => ({
            name: v.name,
            type: v.type,
            key: nameOf(keys, v.vault_key_id),
            script: v.script,
          })),
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      schedules: schedules
        ?.map((s) => ({
          name: s.name,
          cron_format: s.cron_format,
          active: s.active,
          template: nameOf(templates, s.template_id),
          repository: nameOf(repositories, s.repository_id),
          task_params: s.task_params,
        }))
        .sort((a, b) => String(a.name).localeCompare(String(b.name))),
      integrations: await Promise.all(
        (integrations ?? []).map(async (i) => ({
          name: i.name,
          auth_method: i.auth_method,
          auth_header: i.auth_header,
          searchable: i.searchable,
          template: nameOf(templates, i.template_id),
          secret: nameOf(keys, i.auth_secret_id),
          task_params: i.task_params ?? {},
          matchers: (await get(`${base}/integrations/${String(i.id)}/matchers`)).map(
            ({ id: _id, integration_id: _i, project_id: _p, ...m }) => m,
          ),
          values: (await get(`${base}/integrations/${String(i.id)}/values`)).map(
            ({ id: _id, integration_id: _i, project_id: _p, ...v }) => v,
          ),
          aliases: (await get(`${base}/integrations/${String(i.id)}/aliases`)).map((a) =>
            String(a.url).split('/').pop(),
          ),
        })),
      ),
      projectAliases: (await get(`${base}/integrations/aliases`)).map((a) => String(a.url).split('/').pop()),
    };
  }

  /** The stored legacy vault password of a group, opened with the server's key; it never appears in a response. */
  async function readGroupPassword(projectId: number, name: string): Promise<string | null> {
    const row = await t.runtime.connection.db
      .selectFrom('environment')
      .select('password')
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    if (row.password === null) return null;
    const box = createSecretBox(loadEncryptionKey(t.runtime.config.access_key_encryption, t.runtime.config.data_dir));
    return box.open(row.password);
  }

  it('restores a mid-2024 backup (Semaphore 2.10): views by name, survey as JSON text, the single vault key, the cron of a template, the legacy vault password', async () => {
    t.secrets.add('legacy-Vault-Pass-2024');
    const restored = await restore(fixture('semaphore-2024-mid'), 'text/plain');
    expect(restored.project).toMatchObject({
      name: 'Written by Semaphore 2.10',
      alert: true,
      alert_chat: '-100200',
      max_parallel_tasks: 2,
    });
    expect(restored.keys).toEqual([
      ['Deploy key', 'ssh'],
      ['None', 'none'],
      ['Sudo', 'login_password'],
      ['Vault password', 'login_password'],
    ]);
    expect(restored.repositories).toEqual([
      { name: 'Playbooks', git_url: 'git@github.com:acme/playbooks.git', git_branch: 'main', key: 'Deploy key' },
    ]);
    expect(restored.inventories).toEqual([
      {
        name: 'Production hosts',
        type: 'static',
        inventory: '[web]\nweb1.example.com\n',
        key: 'Deploy key',
        become: 'Sudo',
      },
      {
        name: 'Staging hosts',
        type: 'static-yaml',
        inventory: 'all:\n  hosts:\n    stage1.example.com:\n',
        key: 'None',
        become: null,
      },
    ]);
    expect(restored.environments).toEqual([
      { name: 'Empty', json: '{}', env: '{}' },
      { name: 'Production vars', json: '{"region":"eu"}', env: '{"STAGE":"prod"}' },
    ]);
    expect(await readGroupPassword(restored.projectId, 'Production vars')).toBe('legacy-Vault-Pass-2024');
    expect(await readGroupPassword(restored.projectId, 'Empty')).toBeNull();
    // Gantry's own backup of the restored project leaves the password out (the request fails on any leak).
    const exported = await t.request('GET', `/api/project/${restored.projectId}/backup`, { as: t.adminCookie });
    expect(exported.status, exported.text).toBe(200);
    expect((exported.body as { environments: Json[] }).environments.map((e) => 'password' in e)).toEqual([
      false,
      false,
    ]);
    expect(restored.views).toEqual([
      ['Operations', 0],
      ['Builds', 1],
    ]);
    expect(restored.templates).toEqual([
      expect.objectContaining({
        name: 'Build package',
        app: 'ansible',
        type: 'build',
        playbook: 'build.yml',
        start_version: '1.0.0',
        survey_vars: [],
        vaults: [],
      }),
      expect.objectContaining({
        name: 'Deploy package',
        type: 'deploy',
        playbook: 'release.yml',
        build_template: 'Build package',
        autorun: true,
        view: 'Operations',
        survey_vars: [],
      }),
      {
        ...DEPLOY_SITE_TEMPLATE,
        arguments: '["--forks","10"]',
        allow_override_args_in_task: true,
        allow_override_branch_in_task: false,
        allow_parallel_tasks: false,
        suppress_success_alerts: true,
        git_branch: null,
        view: 'Operations',
        survey_vars: [
          {
            name: 'region',
            title: 'Region',
            required: true,
            type: 'enum',
            description: 'Where to deploy',
            default_value: '',
            values: [
              { name: 'Europe', value: 'eu' },
              { name: 'America', value: 'us' },
            ],
          },
        ],
        task_params: {},
        vaults: [{ name: '', type: 'password', key: 'Vault password', script: '' }],
      },
    ]);
    expect(restored.schedules).toEqual([
      {
        name: 'Deploy site',
        cron_format: '0 3 * * *',
        active: true,
        template: 'Deploy site',
        repository: 'Playbooks',
        task_params: {},
      },
    ]);
    expect(restored.integrations).toEqual([]);
  });

  it('restores a late-2024 backup (Semaphore 2.11): integrations with matchers, values and aliases, named vaults, string keys, top-level schedules beside the template cron', async () => {
    const restored = await restore(fixture('semaphore-2024-late'), 'application/x-www-form-urlencoded');
    expect(restored.project).toMatchObject({ name: 'Written by Semaphore 2.11', alert: false, max_parallel_tasks: 0 });
    expect(restored.keys).toEqual([
      ['Default vault', 'string'],
      ['Git token', 'login_password'],
      ['Hook secret', 'string'],
      ['None', 'none'],
      ['Vault password', 'login_password'],
    ]);
    expect(restored.repositories).toEqual([
      { name: 'Infrastructure', git_url: 'https://github.com/acme/infra.git', git_branch: 'main', key: 'Git token' },
      { name: 'Playbooks', git_url: 'https://github.com/acme/playbooks.git', git_branch: 'main', key: 'None' },
    ]);
    expect(restored.inventories).toEqual([
      { name: 'Production hosts', type: 'static', inventory: 'web1.example.com\n', key: 'None', become: null },
      expect.objectContaining({ name: 'Workspace default', type: 'terraform-workspace', key: null }),
    ]);
    expect(restored.views).toEqual([['Operations', 0]]);
    expect(restored.templates).toEqual([
      {
        ...DEPLOY_SITE_TEMPLATE,
        arguments: '[]',
        allow_override_args_in_task: false,
        allow_override_branch_in_task: false,
        allow_parallel_tasks: false,
        suppress_success_alerts: false,
        git_branch: 'release',
        view: 'Operations',
        survey_vars: [
          {
            name: 'version',
            title: 'Version',
            required: false,
            type: '',
            description: '',
            default_value: '',
            values: [],
          },
          {
            name: 'token',
            title: 'API token',
            required: true,
            type: 'secret',
            description: 'Used once',
            default_value: '',
            values: [],
          },
        ],
        task_params: {},
        vaults: expect.arrayContaining([
          { name: 'prod', type: 'password', key: 'Vault password', script: '' },
          { name: '', type: 'password', key: 'Default vault', script: '' },
        ]),
      },
      expect.objectContaining({
        name: 'Provision',
        app: 'terraform',
        repository: 'Infrastructure',
        inventory: 'Workspace default',
        vaults: [],
      }),
    ]);
    expect(restored.schedules).toEqual([
      {
        name: 'Nightly deploy',
        cron_format: '30 2 * * *',
        active: true,
        template: 'Deploy site',
        repository: null,
        task_params: {},
      },
      {
        name: 'On new commit',
        cron_format: '*/15 * * * *',
        active: false,
        template: 'Deploy site',
        repository: 'Playbooks',
        task_params: {},
      },
    ]);
    expect(restored.integrations).toEqual([
      {
        name: 'GitHub push',
        auth_method: 'github',
        auth_header: '',
        searchable: true,
        template: 'Deploy site',
        secret: 'Hook secret',
        task_params: { message: 'pushed' },
        matchers: [
          {
            name: 'Main branch',
            match_type: 'body',
            method: 'equals',
            body_data_type: 'json',
            key: 'ref',
            value: 'refs/heads/main',
          },
        ],
        values: [
          {
            name: 'Commit',
            value_source: 'body',
            body_data_type: 'json',
            key: 'after',
            variable: 'COMMIT',
            variable_type: 'environment',
          },
        ],
        aliases: ['gh4Rk2mXq9TzL1sVbN7cYp3wHd6JfA0e'],
      },
    ]);
    expect(restored.projectAliases).toEqual(['prj8Wq2nZr5TxK3mLc9vBh1sDf4GjY7a']);
  });

  it('restores a 2025 backup (Semaphore 2.13+): typed vaults, template environments and task parameters, schedule and integration task parameters by inventory name; secret storages, runners and one-time schedules are left out', async () => {
    const restored = await restore(fixture('semaphore-2025'));
    expect(restored.project).toMatchObject({
      name: 'Written by Semaphore 2.15',
      alert: true,
      alert_chat: 'ops',
      max_parallel_tasks: 4,
    });
    // The variable group's own secret key (owner "environment") is not a project key; its value was never in the backup.
    expect(restored.keys).toEqual([
      ['Become', 'login_password'],
      ['Deploy key', 'ssh'],
      ['Hook token', 'string'],
      ['None', 'none'],
      ['Vault password', 'string'],
    ]);
    expect(restored.inventories).toEqual([
      expect.objectContaining({ name: 'Default', type: 'tofu-workspace' }),
      {
        name: 'Production hosts',
        type: 'file',
        inventory: 'inventories/production.ini',
        key: 'Deploy key',
        become: 'Become',
      },
    ]);
    const inventoryId = (
      (await get(`/api/project/${restored.projectId}/inventory`)).find((i) => i.name === 'Production hosts') as Json
    ).id;
    expect(restored.environments).toEqual([
      { name: 'Production vars', json: '{"region":"eu"}', env: '{"STAGE":"prod"}' },
    ]);
    expect(restored.templates).toEqual([
      {
        ...DEPLOY_SITE_TEMPLATE,
        arguments: '["--diff"]',
        allow_override_args_in_task: true,
        allow_override_branch_in_task: true,
        allow_parallel_tasks: true,
        suppress_success_alerts: true,
        git_branch: 'main',
        view: null,
        survey_vars: [
          {
            name: 'replicas',
            title: 'Replicas',
            required: false,
            type: 'int',
            description: '',
            default_value: '2',
            values: [],
          },
        ],
        task_params: { allow_override_inventory: true, allow_debug: true, tags: ['web'] },
        vaults: expect.arrayContaining([
          { name: 'prod', type: 'password', key: 'Vault password', script: '' },
          { name: 'dev', type: 'script', key: null, script: 'scripts/vault-pass-client.py' },
        ]),
      },
      expect.objectContaining({
        name: 'Infrastructure',
        app: 'tofu',
        inventory: 'Default',
        task_params: { auto_approve: false },
      }),
    ]);
    expect(restored.schedules).toEqual([
      {
        name: 'Weekday deploy',
        cron_format: '0 4 * * 1-5',
        active: true,
        template: 'Deploy site',
        repository: null,
        task_params: {
          environment: '{"scheduled":true}',
          git_branch: 'release',
          message: 'scheduled',
          inventory_id: inventoryId,
          params: { diff: true },
        },
      },
    ]);
    expect(restored.integrations).toEqual([
      {
        name: 'Deploy hook',
        auth_method: 'token',
        auth_header: 'X-Deploy-Token',
        searchable: false,
        template: 'Deploy site',
        secret: 'Hook token',
        task_params: {
          environment: '{"source":"hook"}',
          message: 'from hook',
          inventory_id: inventoryId,
          params: { debug: true },
        },
        matchers: [
          {
            name: 'Only deploys',
            match_type: 'header',
            method: 'equals',
            body_data_type: '',
            key: 'X-Event',
            value: 'deploy',
          },
        ],
        values: [
          {
            name: 'Ref',
            value_source: 'header',
            body_data_type: '',
            key: 'X-Ref',
            variable: 'REF',
            variable_type: 'environment',
          },
          {
            name: 'Version',
            value_source: 'body',
            body_data_type: 'json',
            key: 'version',
            variable: 'app_version',
            variable_type: 'task',
          },
        ],
        aliases: ['dpl5Hq8nWr2TxK7mLc4vBh9sDf1GjY3a'],
      },
    ]);
  });

  it('refuses a schedule of a type Semaphore does not write, naming it, and restores nothing', async () => {
    const document = JSON.parse(fixture('semaphore-2025')) as { meta: Json; schedules: Json[] };
    document.meta.name = 'Strange schedule';
    document.schedules = [{ ...document.schedules[0], type: 'lunar' }];
    const response = await t.request('POST', '/api/projects/restore', { as: t.adminCookie, body: document });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(/schedules\[0\].*lunar/);
    expect(((await get('/api/projects')) as Json[]).some((p) => p.name === 'Strange schedule')).toBe(false);
  });
});
