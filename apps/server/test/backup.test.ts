import path from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

type Json = Record<string, unknown>;

/** A webhook matcher that starts a task only for a push to main: what the projects below back up and restore. */
const MAIN_BRANCH_MATCHER = {
  match_type: 'body',
  method: 'equals',
  body_data_type: 'json',
  key: 'ref',
  value: 'refs/heads/main',
};

/** A Semaphore-written backup (2.x shape) touching every section, with fields Gantry does not keep. */
function semaphoreBackup(name: string): Json {
  return {
    meta: { name, alert: true, alert_chat: '-100200', max_parallel_tasks: 3, type: '' },
    templates: [
      {
        inventory: 'Prod hosts',
        repository: 'Playbooks',
        environment: 'Prod vars',
        view: 'Deploys',
        name: 'Build app',
        playbook: 'build.yml',
        arguments: '["-v"]',
        allow_override_args_in_task: true,
        description: 'Builds the app',
        vault_key: 'Vault pass',
        type: 'build',
        start_version: '1.0.0',
        autorun: false,
        survey_vars: [
          {
            name: 'release',
            title: 'Release',
            required: true,
            type: '',
            description: '',
            values: null,
            default_value: '',
          },
        ],
        suppress_success_alerts: false,
        app: 'ansible',
        cron: '*/15 * * * *',
        task_params: { allow_debug: true },
        runner_tag: null,
      },
      {
        inventory: 'Prod hosts',
        repository: 'Playbooks',
        environments: ['Prod vars'],
        name: 'Deploy app',
        playbook: 'deploy.yml',
        arguments: null,
        type: 'deploy',
        build_template: 'Build app',
        autorun: true,
        survey_vars: null,
        vaults: [
          { name: 'prod', type: 'password', vault_key: 'Vault pass' },
          { name: 'extra', type: 'script', script: 'scripts/vault-client.py' },
        ],
        app: 'ansible',
      },
      { repository: 'Playbooks', name: 'Cleanup', playbook: 'cleanup.sh', app: 'bash', type: '' },
    ],
    repositories: [
      { name: 'Playbooks', git_url: 'git@github.com:acme/playbooks.git', git_branch: 'main', ssh_key: 'Deploy key' },
    ],
    keys: [
      { name: 'None', type: 'none', owner: '' },
      { name: 'Deploy key', type: 'ssh', owner: '' },
      { name: 'Vault pass', type: 'login_password', owner: '' },
      { name: 'Webhook token', type: 'string', owner: '' },
      { name: 'Prod vars secret', type: 'string', owner: 'environment' },
    ],
    views: [{ title: 'Deploys', position: 0 }],
    inventories: [
      {
        name: 'Prod hosts',
        inventory: '[web]\nweb1.example.com\n',
        type: 'static',
        ssh_key: 'Deploy key',
        become_key: 'Vault pass',
        runner_tag: null,
      },
      { name: 'Repo inventory', inventory: 'inventories/prod.ini', type: 'file', ssh_key: 'Deploy key' },
    ],
    environments: [{ name: 'Prod vars', password: null, json: '{"region":"eu"}', env: '{"STAGE":"prod"}' }],
    integrations: [
      {
        name: 'GitHub push',
        auth_method: 'github',
        auth_header: '',
        searchable: true,
        task_params: { message: 'from webhook', inventory_id: 77, inventory_name: 'Prod hosts' },
        template: 'Build app',
        auth_secret: 'Webhook token',
        aliases: ['semaphoreAlias0001'],
        matchers: [{ name: 'main branch', ...MAIN_BRANCH_MATCHER }],
        extract_values: [
          {
            name: 'commit',
            value_source: 'body',
            body_data_type: 'json',
            key: 'after',
            variable: 'commit_sha',
            variable_type: 'environment',
          },
        ],
      },
    ],
    integration_aliases: ['semaphoreProjectAlias01'],
    schedules: [
      {
        cron_format: '0 4 * * *',
        name: 'Nightly cleanup',
        active: false,
        type: '',
        delete_after_run: false,
        template: 'Cleanup',
        task_params: { message: 'nightly', inventory_name: 'Prod hosts', params: { debug: true } },
      },
    ],
    secret_storages: [],
  };
}

describe.each(dialects)('project backup and restore on %s', (dialect) => {
  const t = useTestApp(dialect);

  const as = () => t.adminCookie;
  const get = async (url: string) => {
    const response = await t.request('GET', url, { as: as() });
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    return response.body as Json;
  };
  const list = async (url: string) => {
    const response = await t.request('GET', url, { as: as() });
    expect(response.status, `${url}: ${response.text}`).toBe(200);
    return response.body as Json[];
  };
  const post = async (url: string, body: unknown, status = 201) => {
    const response = await t.request('POST', url, { as: as(), body });
    expect(response.status, `${url}: ${response.text}`).toBe(status);
    return response.body as Json;
  };
  const projectCount = async () => (await list('/api/projects')).length;
  const restore = (body: unknown, cookie = as()) => t.request('POST', '/api/projects/restore', { as: cookie, body });

  /** A project with one of everything, secrets included, built through the API. */
  async function buildRichProject(): Promise<number> {
    const project = await post('/api/projects', { name: 'Rich', alert: true, alert_chat: '42', max_parallel_tasks: 2 });
    const base = `/api/project/${String(project.id)}`;
    const keys = await list(`${base}/keys`);
    const noneKey = keys[0]?.id;
    t.secrets.add('ssh-Passphrase-77');
    t.secrets.add('vault-Password-1234');
    t.secrets.add('env-Secret-5678');
    const ssh = await post(`${base}/keys`, {
      name: 'deploy',
      type: 'ssh',
      ssh: { login: 'git', passphrase: 'ssh-Passphrase-77', private_key: 'PRIVATE-KEY-BODY' },
    });
    const vault = await post(`${base}/keys`, {
      name: 'vault',
      type: 'login_password',
      login_password: { login: '', password: 'vault-Password-1234' },
    });
    await post(`${base}/keys`, { name: 'vault', type: 'none' });
    const environment = await post(`${base}/environment`, {
      name: 'Staging',
      json: '{"region":"eu-west"}',
      env: '{"STAGE":"staging"}',
      secrets: [{ operation: 'create', type: 'var', name: 'token', secret: 'env-Secret-5678' }],
    });
    const view = await post(`${base}/views`, { title: 'Deploys', position: 1 });
    await post(`${base}/views`, { title: 'Other', position: 2 });
    const repository = await post(`${base}/repositories`, {
      name: 'app',
      git_url: 'https://example.com/app.git',
      git_branch: 'main',
      ssh_key_id: ssh.id,
    });
    const inventory = await post(`${base}/inventory`, {
      name: 'hosts',
      type: 'static',
      inventory: 'localhost\n',
      ssh_key_id: ssh.id,
      become_key_id: vault.id,
    });
    await post(`${base}/inventory`, {
      name: 'from repo',
      type: 'file',
      inventory: 'inv/hosts.ini',
      ssh_key_id: noneKey,
      repository_id: repository.id,
    });
    const template = (fields: Json) =>
      post(`${base}/templates`, { repository_id: repository.id, environment_id: environment.id, ...fields });
    const build = await template({
      name: 'Build',
      app: 'ansible',
      playbook: 'build.yml',
      inventory_id: inventory.id,
      type: 'build',
      start_version: '1.0.0',
      view_id: view.id,
      arguments: '["--check"]',
      survey_vars: [
        { name: 'tier', title: 'Tier', type: 'enum', values: [{ name: 'gold', value: 'g' }], required: true },
      ],
      vaults: [
        { name: '', type: 'password', vault_key_id: vault.id },
        { name: 'ops', type: 'script', script: 'bin/vault-client.sh' },
      ],
      task_params: { allow_debug: true, inventory_id: inventory.id },
    });
    await template({
      name: 'Deploy',
      app: 'ansible',
      playbook: 'deploy.yml',
      inventory_id: inventory.id,
      type: 'deploy',
      build_template_id: build.id,
      autorun: true,
      approval: { approvers: { roles: ['manager'] }, required: 1, timeout_seconds: 600, on_timeout: 'approve' },
    });
    const admin = await get('/api/user');
    const script = await template({
      name: 'Script',
      app: 'bash',
      playbook: 'run.sh',
      approval: { approvers: { user_ids: [admin.id] } },
      retries: 2,
      retry_delay_seconds: 30,
      git_branch: 'feature',
      allow_parallel_tasks: true,
    });
    await post(`${base}/schedules`, {
      name: 'Hourly',
      template_id: script.id,
      cron_format: '0 * * * *',
      active: false,
      task_params: { message: 'tick', inventory_id: inventory.id },
    });
    await post(`${base}/schedules`, {
      name: 'On commit',
      template_id: build.id,
      cron_format: '*/5 * * * *',
      repository_id: repository.id,
    });
    const integration = await post(`${base}/integrations`, {
      name: 'Push',
      template_id: script.id,
      auth_method: 'token',
      auth_header: 'X-Token',
      auth_secret_id: vault.id,
      searchable: true,
      task_params: { message: 'hook', inventory_id: inventory.id },
    });
    const one = `${base}/integrations/${String(integration.id)}`;
    await post(`${one}/matchers`, { name: 'main', ...MAIN_BRANCH_MATCHER }, 200);
    await post(`${one}/values`, { name: 'sha', value_source: 'header', key: 'X-Sha', variable: 'sha' });
    await post(`${one}/aliases`, undefined, 200);
    await post(`${base}/integrations/aliases`, undefined, 200);
    return Number(project.id);
  }

  it('backs a project up without secrets and restores it to the same document', async () => {
    const projectId = await buildRichProject();
    const backup = await get(`/api/project/${projectId}/backup`);
    expect(backup.meta).toMatchObject({ name: 'Rich', alert: true, alert_chat: '42', max_parallel_tasks: 2, type: '' });
    expect(JSON.stringify(backup)).not.toMatch(/PRIVATE-KEY-BODY|"id"|project_id|_id"/);
    // Two keys named "vault": the second is renamed so that references stay unambiguous.
    expect((backup.keys as Json[]).map((k) => k.name)).toEqual(['None', 'deploy', 'vault', 'vault (2)']);
    expect(backup.templates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Build',
          repository: 'app',
          inventory: 'hosts',
          environment: 'Staging',
          view: 'Deploys',
          vaults: [
            { name: '', type: 'password', vault_key: 'vault' },
            { name: 'ops', type: 'script', script: 'bin/vault-client.sh' },
          ],
        }),
        expect.objectContaining({
          name: 'Deploy',
          type: 'deploy',
          build_template: 'Build',
          autorun: true,
          approval: {
            approvers: { users: [], roles: ['manager'] },
            required: 1,
            starter_may_approve: false,
            timeout_seconds: 600,
            on_timeout: 'approve',
          },
        }),
        expect.objectContaining({
          name: 'Script',
          approval: expect.objectContaining({ approvers: { users: ['admin'], roles: [] } }),
          retries: 2,
          retry_delay_seconds: 30,
        }),
      ]),
    );
    expect((backup.templates as Json[]).find((x) => x.name === 'Build')).not.toHaveProperty('approval');
    expect(backup.schedules).toEqual([
      expect.objectContaining({
        name: 'Hourly',
        template: 'Script',
        active: false,
        task_params: { message: 'tick', inventory_name: 'hosts' },
      }),
      expect.objectContaining({ name: 'On commit', template: 'Build', checkable_repository: 'app' }),
    ]);

    const [integration] = backup.integrations as Json[];
    expect(integration).toEqual({
      name: 'Push',
      auth_method: 'token',
      auth_header: 'X-Token',
      searchable: true,
      task_params: { message: 'hook', inventory_name: 'hosts' },
      template: 'Script',
      auth_secret: 'vault',
      aliases: [expect.stringMatching(/^[A-Za-z0-9_-]{32}$/)],
      matchers: [{ name: 'main', ...MAIN_BRANCH_MATCHER }],
      extract_values: [
        {
          name: 'sha',
          value_source: 'header',
          body_data_type: '',
          key: 'X-Sha',
          variable: 'sha',
          variable_type: 'environment',
        },
      ],
    });
    expect(backup.integration_aliases).toEqual([expect.stringMatching(/^[A-Za-z0-9_-]{32}$/)]);

    // Beside the original, the copy gets aliases of its own: a webhook URL keeps starting one project.
    const restored = await restore({ ...backup, meta: { ...(backup.meta as Json), name: 'Rich copy' } });
    expect(restored.status, restored.text).toBe(200);
    const copy = restored.body as Json;
    expect(copy).toMatchObject({ name: 'Rich copy', alert: true, alert_chat: '42', max_parallel_tasks: 2 });
    const again = await get(`/api/project/${String(copy.id)}/backup`);
    const withoutAliases = (document: Json) => ({
      ...document,
      meta: { ...(document.meta as Json), name: 'Rich' },
      integrations: (document.integrations as Json[]).map((i) => ({ ...i, aliases: (i.aliases as string[]).length })),
      integration_aliases: (document.integration_aliases as string[]).length,
    });
    expect(withoutAliases(again)).toEqual(withoutAliases(backup));
    expect((again.integrations as Json[])[0]?.aliases).not.toEqual(integration?.aliases);

    // Moved to a server where the aliases are free (here: the original is gone), the document comes back whole.
    expect((await t.request('DELETE', `/api/project/${projectId}`, { as: as() })).status).toBe(204);
    const moved = await restore(backup);
    expect(moved.status, moved.text).toBe(200);
    expect(await get(`/api/project/${String((moved.body as Json).id)}/backup`)).toEqual(backup);

    // Keys come back without secrets; the caller owns the new project.
    const keys = await list(`/api/project/${String(copy.id)}/keys`);
    expect(keys.map((k) => k.empty)).toEqual([true, true, true, true]);
    expect(await get(`/api/project/${String(copy.id)}/role`)).toMatchObject({ role: 'owner' });
    const schedules = await list(`/api/project/${String(copy.id)}/schedules`);
    expect(schedules.find((s) => s.name === 'Hourly')?.task_params).toMatchObject({ inventory_id: expect.any(Number) });
    // A template's task parameters name their inventory too, and point at the copy's own.
    const copyHosts = (await list(`/api/project/${String(copy.id)}/inventory`)).find((i) => i.name === 'hosts');
    const copyBuild = (await list(`/api/project/${String(copy.id)}/templates`)).find((x) => x.name === 'Build');
    expect(copyBuild?.task_params).toEqual({ allow_debug: true, inventory_id: copyHosts?.id });
  });

  it('carries schedules and integrations of workflows, naming the workflow, and restores them after it', async () => {
    const project = await post('/api/projects', { name: 'Flows' });
    const base = `/api/project/${String(project.id)}`;
    const [noneKey] = await list(`${base}/keys`);
    const repository = await post(`${base}/repositories`, {
      name: 'app',
      git_url: 'https://example.com/app.git',
      git_branch: 'main',
      ssh_key_id: noneKey?.id,
    });
    const environment = await post(`${base}/environment`, { name: 'Vars', json: '{}', env: '{}' });
    const template = await post(`${base}/templates`, {
      name: 'Script',
      app: 'bash',
      playbook: 'run.sh',
      repository_id: repository.id,
      environment_id: environment.id,
    });
    const workflow = await post(`${base}/workflows`, {
      name: 'Release',
      variables: [{ name: 'tier', required: true }],
      steps: [{ key: 'run', kind: 'template', template_id: template.id }],
      edges: [],
    });
    await post(`${base}/schedules`, {
      name: 'Nightly release',
      workflow_id: workflow.id,
      cron_format: '0 3 * * *',
      active: true,
      task_params: { variables: { tier: 'gold' } },
    });
    await post(`${base}/schedules`, { name: 'Nightly script', template_id: template.id, cron_format: '0 4 * * *' });
    const hook = await post(`${base}/integrations`, {
      name: 'Release hook',
      workflow_id: workflow.id,
      task_params: { variables: { tier: 'silver' } },
    });
    await post(`${base}/integrations/${String(hook.id)}/values`, {
      name: 'tier',
      value_source: 'header',
      key: 'X-Tier',
      variable: 'tier',
      variable_type: 'task',
    });

    const backup = await get(`${base}/backup`);
    expect(backup.schedules).toEqual([
      {
        name: 'Nightly release',
        cron_format: '0 3 * * *',
        active: true,
        workflow: 'Release',
        task_params: { variables: { tier: 'gold' } },
      },
      expect.objectContaining({ name: 'Nightly script', template: 'Script' }),
    ]);
    expect(backup.integrations).toEqual([
      expect.objectContaining({
        name: 'Release hook',
        workflow: 'Release',
        task_params: { variables: { tier: 'silver' } },
        extract_values: [expect.objectContaining({ name: 'tier', key: 'X-Tier', variable_type: 'task' })],
      }),
    ]);
    expect(backup.integrations as Json[]).not.toContainEqual(expect.objectContaining({ template: expect.anything() }));

    // Restored, the schedule and the integration start the restored workflow, and back up to the same document.
    const restored = await restore({ ...backup, meta: { name: 'Flows copy' } });
    expect(restored.status, restored.text).toBe(200);
    const copyBase = `/api/project/${String((restored.body as Json).id)}`;
    const [copyWorkflow] = await list(`${copyBase}/workflows`);
    expect(copyWorkflow).toMatchObject({ name: 'Release' });
    expect(copyWorkflow?.id).not.toBe(workflow.id);
    const schedules = await list(`${copyBase}/schedules`);
    expect(schedules.find((x) => x.name === 'Nightly release')).toMatchObject({
      workflow_id: copyWorkflow?.id,
      template_id: null,
      active: true,
      next_run: expect.any(String),
    });
    const integrations = await list(`${copyBase}/integrations`);
    expect(integrations).toEqual([
      expect.objectContaining({ name: 'Release hook', workflow_id: copyWorkflow?.id, template_id: null }),
    ]);
    const again = await get(`${copyBase}/backup`);
    const withoutAliases = (document: Json) => ({
      ...document,
      meta: { ...(document.meta as Json), name: 'Flows' },
      integrations: (document.integrations as Json[]).map((i) => ({ ...i, aliases: (i.aliases as string[]).length })),
    });
    expect(withoutAliases(again)).toEqual(withoutAliases(backup));

    // A workflow target is checked as the API checks it: the workflow must be in the backup and take the variables.
    const before = await projectCount();
    const [schedule] = backup.schedules as Json[];
    const [integration] = backup.integrations as Json[];
    const cases: [Json, RegExp][] = [
      [
        { schedules: [{ ...schedule, workflow: 'Gone' }] },
        /schedules\[0\] "Nightly release": workflow "Gone" does not exist in workflows/,
      ],
      [
        { schedules: [{ ...schedule, template: 'Script' }] },
        /schedules\.0\.workflow names a workflow beside a template/,
      ],
      [{ schedules: [{ ...schedule, workflow: null }] }, /schedules\.0\.template is required/],
      [
        { schedules: [{ ...schedule, task_params: {} }] },
        /schedules\[0\] "Nightly release": Required workflow variables missing: tier/,
      ],
      [
        { integrations: [{ ...integration, task_params: { variables: { region: 'eu' } } }] },
        /integrations\[0\] "Release hook": Unknown workflow variables: region/,
      ],
      [
        { integrations: [{ ...integration, task_params: { variables: { tier: 7 } } }] },
        /integrations\[0\] "Release hook": task_params\.variables/,
      ],
      [{ integrations: [{ ...integration, workflow: 'Gone' }] }, /workflow "Gone" does not exist in workflows/],
    ];
    for (const [change, message] of cases) {
      const response = await restore({ ...backup, integrations: [], schedules: [], ...change });
      expect(response.status, response.text).toBe(400);
      expect((response.body as Json).error).toMatch(message);
    }
    expect(await projectCount()).toBe(before);
  });

  it('restores a Semaphore backup with every section, keeping what Gantry can use', async () => {
    const response = await restore(semaphoreBackup('From Semaphore'));
    expect(response.status, response.text).toBe(200);
    const project = response.body as Json;
    const base = `/api/project/${String(project.id)}`;
    expect(project).toMatchObject({
      name: 'From Semaphore',
      alert: true,
      alert_chat: '-100200',
      max_parallel_tasks: 3,
    });

    const keys = await list(`${base}/keys`);
    // The variable group's secret key is left out: its value was never in the backup.
    expect(keys.map((k) => [k.name, k.type, k.empty]).sort()).toEqual([
      ['Deploy key', 'ssh', true],
      ['None', 'none', true],
      ['Vault pass', 'login_password', true],
      ['Webhook token', 'string', true],
    ]);
    const keyId = (name: string) => keys.find((k) => k.name === name)?.id;
    const [repository] = await list(`${base}/repositories`);
    expect(repository).toMatchObject({
      name: 'Playbooks',
      git_url: 'git@github.com:acme/playbooks.git',
      git_branch: 'main',
      ssh_key_id: keyId('Deploy key'),
    });
    const inventories = await list(`${base}/inventory`);
    expect(inventories).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Prod hosts',
          type: 'static',
          inventory: '[web]\nweb1.example.com\n',
          ssh_key_id: keyId('Deploy key'),
          become_key_id: keyId('Vault pass'),
        }),
        expect.objectContaining({ name: 'Repo inventory', type: 'file', inventory: 'inventories/prod.ini' }),
      ]),
    );
    const [environment] = await list(`${base}/environment`);
    expect(environment).toMatchObject({ name: 'Prod vars', json: '{"region":"eu"}', env: '{"STAGE":"prod"}' });
    const [view] = await list(`${base}/views`);
    expect(view).toMatchObject({ title: 'Deploys', position: 0 });

    const templates = await list(`${base}/templates`);
    const build = templates.find((x) => x.name === 'Build app');
    const deploy = templates.find((x) => x.name === 'Deploy app');
    expect(build).toMatchObject({
      type: 'build',
      start_version: '1.0.0',
      arguments: '["-v"]',
      allow_override_args_in_task: true,
      view_id: view?.id,
      environment_id: environment?.id,
      repository_id: repository?.id,
      task_params: { allow_debug: true },
      survey_vars: [expect.objectContaining({ name: 'release', required: true, values: [] })],
      vaults: [expect.objectContaining({ name: '', type: 'password', vault_key_id: keyId('Vault pass') })],
    });
    expect(deploy).toMatchObject({
      type: 'deploy',
      build_template_id: build?.id,
      autorun: true,
      environment_id: environment?.id,
      vaults: [
        expect.objectContaining({ name: 'prod', type: 'password', vault_key_id: keyId('Vault pass') }),
        expect.objectContaining({ name: 'extra', type: 'script', script: 'scripts/vault-client.py' }),
      ],
    });
    expect(templates.find((x) => x.name === 'Cleanup')).toMatchObject({
      app: 'bash',
      inventory_id: null,
      environment_id: null,
    });

    const schedules = await list(`${base}/schedules`);
    expect(schedules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Nightly cleanup',
          cron_format: '0 4 * * *',
          active: false,
          tpl_name: 'Cleanup',
          task_params: {
            message: 'nightly',
            inventory_id: inventories.find((i) => i.name === 'Prod hosts')?.id,
            params: { debug: true },
          },
        }),
        // The old per-template cron becomes a "run on new commit" schedule of the template's repository.
        expect.objectContaining({
          name: 'Build app',
          cron_format: '*/15 * * * *',
          active: true,
          repository_id: repository?.id,
          tpl_name: 'Build app',
        }),
      ]),
    );

    const [integration] = await list(`${base}/integrations`);
    expect(integration).toMatchObject({
      name: 'GitHub push',
      auth_method: 'github',
      searchable: true,
      template_id: build?.id,
      auth_secret_id: keyId('Webhook token'),
      // The foreign inventory id is dropped; the inventory named in the backup takes its place.
      task_params: { message: 'from webhook', inventory_id: inventories.find((i) => i.name === 'Prod hosts')?.id },
    });
    const one = `${base}/integrations/${String(integration?.id)}`;
    expect(await list(`${one}/matchers`)).toEqual([
      expect.objectContaining({ name: 'main branch', ...MAIN_BRANCH_MATCHER }),
    ]);
    expect(await list(`${one}/values`)).toEqual([
      expect.objectContaining({
        name: 'commit',
        value_source: 'body',
        key: 'after',
        variable: 'commit_sha',
        variable_type: 'environment',
      }),
    ]);
    expect((await list(`${one}/aliases`)).map((a) => a.url)).toEqual([
      expect.stringMatching(/\/api\/integrations\/semaphoreAlias0001$/),
    ]);
    expect((await list(`${base}/integrations/aliases`)).map((a) => a.url)).toEqual([
      expect.stringMatching(/\/api\/integrations\/semaphoreProjectAlias01$/),
    ]);
  });

  it('gives restored terraform and tofu templates their default workspace, as templates made by hand get', async () => {
    const response = await restore({
      meta: { name: 'Infra' },
      keys: [{ name: 'None', type: 'none' }],
      repositories: [{ name: 'infra', git_url: '/srv/infra', ssh_key: 'None' }],
      inventories: [{ name: 'Prod workspace', type: 'terraform-workspace', inventory: 'prod' }],
      templates: [
        { name: 'Net', app: 'terraform', playbook: 'net', repository: 'infra', inventory: 'Prod workspace' },
        { name: 'Dns', app: 'tofu', playbook: 'dns', repository: 'infra' },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const base = `/api/project/${String((response.body as Json).id)}`;
    const templates = await list(`${base}/templates`);
    const net = templates.find((x) => x.name === 'Net');
    const dns = templates.find((x) => x.name === 'Dns');
    expect(await list(`${base}/inventory?app=terraform&template_id=${String(net?.id)}`)).toEqual([
      expect.objectContaining({
        id: net?.inventory_id,
        name: 'Prod workspace',
        type: 'terraform-workspace',
        template_id: net?.id,
      }),
    ]);
    expect(await list(`${base}/inventory?app=tofu&template_id=${String(dns?.id)}`)).toEqual([
      expect.objectContaining({
        id: dns?.inventory_id,
        name: 'Dns - default',
        type: 'tofu-workspace',
        inventory: 'default',
        template_id: dns?.id,
      }),
    ]);
  });

  it('rejects malformed, truncated and hostile files with a 400 naming the problem, creating nothing', async () => {
    const before = await projectCount();
    const valid = semaphoreBackup('Hostile');
    const withTemplate = (index: number, change: Json) => {
      const templates = structuredClone(valid.templates) as Json[];
      templates[index] = { ...templates[index], ...change };
      return { ...valid, templates };
    };
    const cases: [string, { body?: unknown; raw?: string }, RegExp][] = [
      ['truncated JSON', { raw: JSON.stringify(valid).slice(0, 200) }, /not valid JSON/],
      ['not an object', { body: [1, 2, 3] }, /JSON object/],
      ['no meta', { body: { templates: [] } }, /meta/],
      ['meta without a name', { body: { meta: { name: '  ' } } }, /meta\.name is required/],
      ['a wrong type', { body: { ...valid, meta: { name: 'x', alert: 'yes' } } }, /meta\.alert must be true or false/],
      ['a section that is not an array', { body: { ...valid, keys: { name: 'None' } } }, /keys must be an array/],
      [
        'an unknown repository',
        { body: withTemplate(2, { repository: 'Nowhere' }) },
        /templates\[2\] "Cleanup": repository "Nowhere" does not exist in repositories/,
      ],
      [
        'an unknown inventory',
        { body: withTemplate(0, { inventory: 'Ghost' }) },
        /templates\[0\] "Build app": inventory "Ghost" does not exist in inventories/,
      ],
      [
        'an unknown key',
        { body: { ...valid, repositories: [{ name: 'Playbooks', git_url: '/srv/repo', ssh_key: 'Missing key' }] } },
        /repositories\[0\] "Playbooks": key "Missing key" does not exist in keys/,
      ],
      [
        'an unknown build template',
        { body: withTemplate(1, { build_template: 'Cleanup' }) },
        /build_template "Cleanup" is not a build template/,
      ],
      [
        'an unknown schedule template',
        { body: { ...valid, schedules: [{ cron_format: '0 1 * * *', template: 'Nope' }] } },
        /schedules\[0\]: template "Nope" does not exist in templates/,
      ],
      [
        'an invalid cron',
        { body: { ...valid, schedules: [{ cron_format: 'every day', template: 'Cleanup' }] } },
        /schedules\[0\]: Cron: expected five fields/,
      ],
      [
        'duplicate names',
        { body: { ...valid, views: [{ title: 'Deploys' }, { title: 'Deploys' }] } },
        /views\[1\]: duplicate name "Deploys"/,
      ],
      [
        'a huge string',
        { body: withTemplate(2, { name: 'x'.repeat(100_000) }) },
        /templates\.2\.name must be at most 255 characters/,
      ],
      [
        'a huge inventory',
        { body: { ...valid, inventories: [{ name: 'big', type: 'static', inventory: 'h\n'.repeat(600_000) }] } },
        /inventories\.0\.inventory must be at most/,
      ],
      [
        'too many items',
        { body: { ...valid, views: Array.from({ length: 5001 }, (_, i) => ({ title: `v${i}` })) } },
        /views must hold at most 5000 items/,
      ],
      [
        'an unsafe file inventory path',
        { body: { ...valid, inventories: [{ name: 'up', type: 'file', inventory: '../../etc/passwd' }] } },
        /inventories\.0\.inventory must be a relative path/,
      ],
      [
        'a branch git would read as an option',
        {
          body: {
            ...valid,
            repositories: [
              { name: 'Playbooks', git_url: '/srv/repo', git_branch: '--upload-pack=touch /tmp/x', ssh_key: 'None' },
            ],
          },
        },
        /Branch must be a valid git branch name/,
      ],
      [
        'a bad repository URL',
        { body: { ...valid, repositories: [{ name: 'Playbooks', git_url: 'not a url', ssh_key: 'None' }] } },
        /Incorrect URL/,
      ],
      ['an unknown app', { body: withTemplate(2, { app: 'cobol' }) }, /Invalid app id: cobol/],
      [
        'an unknown integration template',
        { body: { ...valid, integrations: [{ name: 'i', template: 'Gone' }] } },
        /integrations\[0\] "i": template "Gone" does not exist in templates/,
      ],
      [
        'a duplicate alias',
        { body: { ...valid, integration_aliases: ['semaphoreAlias0001'] } },
        /integration_aliases\[0\]: duplicate alias "semaphoreAlias0001"/,
      ],
      [
        'a hostile alias',
        { body: { ...valid, integration_aliases: ['../../admin'] } },
        /integration_aliases\.0 must be 1 to 64 letters/,
      ],
      [
        'an unknown matcher method',
        {
          body: {
            ...valid,
            integrations: [
              { name: 'i', template: 'Cleanup', matchers: [{ name: 'm', match_type: 'body', method: 'regex' }] },
            ],
          },
        },
        /integrations\.0\.matchers\.0\.method/,
      ],
      [
        'a NUL character',
        { body: withTemplate(2, { description: 'a\u0000b' }) },
        /templates\.2\.description must not contain NUL characters/,
      ],
      [
        'a NUL character in a name',
        { body: { ...valid, views: [{ title: 'x\u0000' }] } },
        /views\.0\.title must not contain NUL characters/,
      ],
      [
        'an unknown key type',
        { body: { ...valid, keys: [{ name: 'None', type: 'rsa' }] } },
        /keys\.0\.type must be one of/,
      ],
      [
        'mistyped integration task parameters',
        {
          body: {
            ...valid,
            integrations: [{ name: 'i', template: 'Cleanup', task_params: { message: { text: 'hi' } } }],
          },
        },
        /integrations\.0\.task_params\.message must be a string/,
      ],
      [
        'an unknown integration inventory',
        {
          body: {
            ...valid,
            integrations: [{ name: 'i', template: 'Cleanup', task_params: { inventory_name: 'Ghost' } }],
          },
        },
        /integrations\[0\] "i": inventory "Ghost" does not exist in inventories/,
      ],
      [
        'a playbook outside the repository',
        { body: withTemplate(2, { playbook: '../../../../etc/passwd' }) },
        /Playbook must be a path inside the repository/,
      ],
      [
        'a vault name that is a path',
        { body: withTemplate(2, { vaults: [{ name: 'x@/tmp/a/../b c', type: 'password', vault_key: 'None' }] }) },
        /Vault name may only hold/,
      ],
      [
        'a vault name that grows when lower-cased',
        { body: withTemplate(2, { vaults: [{ name: '\u0130'.repeat(80), type: 'password', vault_key: 'None' }] }) },
        /Vault name/,
      ],
      [
        'a vault script outside the repository',
        { body: withTemplate(2, { vaults: [{ name: 'ops', type: 'script', script: '../../tmp/evil-client' }] }) },
        /Vault script must be a path inside the repository/,
      ],
      [
        'an environment variable name a shell would read as another variable',
        { body: { ...valid, environments: [{ name: 'Hijack', json: '{}', env: '{"PATH=/tmp/evil:": "x"}' }] } },
        /Environment variable names may hold only letters, digits and _/,
      ],
      [
        'an environment variable that is no plain value',
        { body: { ...valid, environments: [{ name: 'Nested', json: '{}', env: '{"A": {"b": 1}}' }] } },
        /Environment variables must be valid JSON/,
      ],
      [
        'deeply nested task parameters',
        {
          raw: JSON.stringify(withTemplate(2, { task_params: { deep: 0 } })).replace(
            '{"deep":0}',
            `{"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
          ),
        },
        /nested/,
      ],
    ];
    for (const [label, input, message] of cases) {
      const response = await t.request('POST', '/api/projects/restore', {
        as: as(),
        ...(input.raw !== undefined ? { rawBody: input.raw } : { body: input.body }),
      });
      expect(response.status, `${label}: ${response.text}`).toBe(400);
      expect((response.body as { error: string }).error, label).toMatch(message);
    }
    expect(await projectCount()).toBe(before);
  });

  it('backs up names as long as they get twice, and task parameters no backup could name, into a file that restores', async () => {
    const project = await post('/api/projects', { name: 'Edges' });
    const base = `/api/project/${String(project.id)}`;
    const longName = `${'k'.repeat(253)}\u{1F511}`;
    await post(`${base}/keys`, { name: longName, type: 'none' });
    await post(`${base}/keys`, { name: longName, type: 'none' });
    const repository = await post(`${base}/repositories`, {
      name: 'r',
      git_url: '/srv/repo',
      ssh_key_id: (await list(`${base}/keys`))[0]?.id,
    });
    const template = await post(`${base}/templates`, {
      name: 'T',
      environment_id: (await post(`${base}/environment`, { name: 'e', json: '{}' })).id,
      app: 'bash',
      playbook: 'a.sh',
      repository_id: repository.id,
    });
    const schedule = { name: 's', cron_format: '0 1 * * *', template_id: template.id };
    const mistyped = await t.request('POST', `${base}/schedules`, {
      as: as(),
      body: { ...schedule, task_params: { version: 5 } },
    });
    expect(mistyped.status).toBe(400);
    await post(`${base}/schedules`, { ...schedule, task_params: { version: '1.2.3' } });
    await post(`${base}/integrations`, {
      name: 'i',
      template_id: template.id,
      task_params: { inventory_name: 'Ghost' },
    });

    const backup = await get(`${base}/backup`);
    const keyNames = (backup.keys as Json[]).map((key) => String(key.name)).filter((name) => name.startsWith('kkk'));
    expect(keyNames).toHaveLength(2);
    expect(keyNames.every((name) => name.length <= 255)).toBe(true);
    expect(new Set(keyNames).size).toBe(2);
    expect((backup.schedules as Json[])[0]?.task_params).toMatchObject({ version: '1.2.3' });
    expect((backup.integrations as Json[])[0]?.task_params).not.toHaveProperty('inventory_name');
    const restored = await restore({ ...backup, meta: { ...(backup.meta as Json), name: 'Edges copy' } });
    expect(restored.status, restored.text).toBe(200);
  });

  it('lets members download a backup, and only users who may create projects restore one', async () => {
    const member = await t.createUser(`member${dialect}`);
    const outsider = await t.createUser(`outsider${dialect}`);
    const project = await post('/api/projects', { name: 'Shared' });
    await post(`/api/project/${String(project.id)}/users`, { user_id: member.id, role: 'guest' }, 204);
    expect((await t.request('GET', `/api/project/${String(project.id)}/backup`, { as: member.cookie })).status).toBe(
      200,
    );
    expect((await t.request('GET', `/api/project/${String(project.id)}/backup`, { as: outsider.cookie })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/api/project/${String(project.id)}/backup`)).status).toBe(401);
    const before = await projectCount();
    expect((await restore(semaphoreBackup('Not allowed'), member.cookie)).status).toBe(403);
    expect((await t.request('POST', '/api/projects/restore', { body: semaphoreBackup('Anonymous') })).status).toBe(401);
    expect(await projectCount()).toBe(before);
  });
});

describe.each(dialects)('project restore permissions with non-admin project creation on %s', (dialect) => {
  const t = useTestApp(dialect, { non_admin_can_create_project: true });

  it('lets any signed-in user restore a project they then own', async () => {
    const user = await t.createUser('restorer');
    const response = await t.request('POST', '/api/projects/restore', {
      as: user.cookie,
      body: semaphoreBackup('Mine'),
    });
    expect(response.status, response.text).toBe(200);
    const id = (response.body as Json).id;
    expect((await t.request('GET', `/api/project/${String(id)}/role`, { as: user.cookie })).body).toMatchObject({
      role: 'owner',
    });
  });
});

describe.each(dialects)('demo project on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function waitForStatus(base: string, taskId: number): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const task = (await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as Json;
      if (['success', 'error', 'stopped'].includes(String(task.status))) return String(task.status);
      if (Date.now() > deadline) throw new Error(`Task ${taskId} is still ${String(task.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it(
    'creates a demo project whose bash, python and ansible templates run to success offline',
    { timeout: 120_000 },
    async () => {
      const response = await t.request('POST', '/api/projects', {
        as: t.adminCookie,
        body: { name: 'Demo', demo: true },
      });
      expect(response.status, response.text).toBe(201);
      const base = `/api/project/${String((response.body as Json).id)}`;
      const [repository] = (await t.request('GET', `${base}/repositories`, { as: t.adminCookie })).body as Json[];
      // A local repository inside the data directory: nothing to download.
      expect(String(repository?.git_url)).toMatch(/^\/.*demo-repositories\/demo-/);
      const [schedule] = (await t.request('GET', `${base}/schedules`, { as: t.adminCookie })).body as Json[];
      expect(schedule).toMatchObject({ name: 'Nightly hello', active: false });
      const inventories = (await t.request('GET', `${base}/inventory`, { as: t.adminCookie })).body as Json[];
      expect(inventories.map((i) => i.name)).toEqual(['Localhost']);

      const templates = (await t.request('GET', `${base}/templates`, { as: t.adminCookie })).body as Json[];
      expect(templates.map((x) => x.name).sort()).toEqual([
        'Ansible: ping localhost',
        'Bash: hello',
        'Python: system info',
      ]);
      const expected: Record<string, RegExp> = {
        'Bash: hello': /Bash demo finished\./,
        'Python: system info': /Python demo finished\./,
        'Ansible: ping localhost': /"msg": "Hello from localhost"/,
      };
      for (const template of templates) {
        const task = await t.request('POST', `${base}/tasks`, {
          as: t.adminCookie,
          body: { template_id: template.id },
        });
        expect(task.status, task.text).toBe(201);
        const taskId = Number((task.body as Json).id);
        const status = await waitForStatus(base, taskId);
        const output = (
          (await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as Json[]
        )
          .map((l) => l.output)
          .join('\n');
        expect(status, `${String(template.name)}:\n${output}`).toBe('success');
        expect(output).toMatch(expected[String(template.name)] ?? /never/);
      }

      // Deleting the project takes its files along: the demo repository and the templates' working
      // copies (the demo runs its local repository in place, so a working copy is laid down by hand).
      const projectId = Number(base.split('/').at(-1));
      // A copy restored from the demo's backup shares its repository: deleting the copy leaves it in place.
      const demoBackup = (await t.request('GET', `${base}/backup`, { as: t.adminCookie })).body as Json;
      const copy = await t.request('POST', '/api/projects/restore', {
        as: t.adminCookie,
        body: { ...demoBackup, meta: { ...(demoBackup.meta as Json), name: 'Demo copy' } },
      });
      expect(copy.status, copy.text).toBe(200);
      expect(
        (await t.request('DELETE', `/api/project/${String((copy.body as Json).id)}`, { as: t.adminCookie })).status,
      ).toBe(204);
      expect(existsSync(String(repository?.git_url))).toBe(true);
      const checkouts = path.join(t.runtime.config.data_dir, 'repositories', `project_${projectId}`);
      mkdirSync(path.join(checkouts, 'repository_1_template_1'), { recursive: true });
      expect(existsSync(String(repository?.git_url))).toBe(true);
      expect((await t.request('DELETE', base, { as: t.adminCookie })).status).toBe(204);
      expect(existsSync(String(repository?.git_url))).toBe(false);
      expect(existsSync(checkouts)).toBe(false);
    },
  );

  it('refuses the demo project to users who may not create projects', async () => {
    const user = await t.createUser('nodemo');
    const response = await t.request('POST', '/api/projects', { as: user.cookie, body: { name: 'Demo', demo: true } });
    expect(response.status).toBe(403);
  });
});
