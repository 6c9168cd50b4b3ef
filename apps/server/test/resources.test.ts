import { emptyRefs } from '@gantry/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { enumSurveyVar } from './survey-fixture.ts';
import { addMember } from './task-fixture.ts';
import { createAppsRepository } from '../src/modules/apps/apps.repository.ts';
import { createProjectsRepository } from '../src/modules/projects/projects.repository.ts';
import { createRunnersRepository } from '../src/modules/runners/runners.repository.ts';
import { createUsersRepository } from '../src/modules/users/users.repository.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const PRIVATE_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ-test-only\n-----END OPENSSH PRIVATE KEY-----';

describe.each(dialects)('project resources on %s', (dialect) => {
  let projectId: number;
  let base: string;
  const ids = { key: 0, loginKey: 0, repository: 0, inventory: 0, environment: 0 };

  const post = async (path: string, body: unknown, expected = 201) => {
    const response = await t.request('POST', `${base}${path}`, { as: t.adminCookie, body });
    expect(response.status, JSON.stringify(response.body)).toBe(expected);
    return response.body as { id: number } & Record<string, unknown>;
  };

  type Refusal = [body: Record<string, unknown>, error: string];
  /** Posts each body to `path`: the server must refuse every one with its error. */
  const expectRefusals = async (path: string, refusals: Refusal[]) => {
    for (const [body, error] of refusals) expect(await post(path, body, 400)).toMatchObject({ error });
  };

  const t = useTestApp(dialect);
  beforeAll(async () => {
    for (const secret of [PRIVATE_KEY, 'key-passphrase-1', 'vault-Password-9', 'db-Password-7', 'env-Secret-5'])
      t.secrets.add(secret);
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Resources' } });
    projectId = (project.body as { id: number }).id;
    base = `/api/project/${projectId}`;
  });

  it('a new project starts with a "None" key and an "Empty" variable group', async () => {
    const keys = (await t.request('GET', `${base}/keys`, { as: t.adminCookie })).body;
    expect(keys).toEqual([expect.objectContaining({ name: 'None', type: 'none' })]);
    const groups = (await t.request('GET', `${base}/environment`, { as: t.adminCookie })).body;
    expect(groups).toEqual([expect.objectContaining({ name: 'Empty', json: '{}', env: '{}' })]);
  });

  it('keys: secrets are required, encrypted at rest, never returned, and replaced only with override_secret', async () => {
    await expectRefusals('/keys', [
      [{ name: 'k', type: 'ssh', ssh: { private_key: '' } }, 'Private key is required'],
      [{ name: 'k', type: 'login_password', login_password: { login: 'u' } }, 'Password is required'],
      [{ name: '', type: 'none' }, 'Name is required'],
    ]);
    await post('/keys', { name: 'x', type: 'rsa' }, 400);

    const ssh = await post('/keys', {
      name: 'deploy',
      type: 'ssh',
      ssh: { login: 'git', passphrase: 'key-passphrase-1', private_key: PRIVATE_KEY },
    });
    ids.key = ssh.id;
    expect(ssh).toMatchObject({
      name: 'deploy',
      type: 'ssh',
      empty: false,
      ssh: { login: '', passphrase: '', private_key: '' },
    });
    const vault = await post('/keys', {
      name: 'vault',
      type: 'login_password',
      login_password: { login: '', password: 'vault-Password-9' },
    });
    ids.loginKey = vault.id;

    const stored = await t.runtime.connection.db
      .selectFrom('access_key')
      .select('secret')
      .where('id', '=', ssh.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain('BEGIN OPENSSH');
    expect(await t.runtime.services.keys.getMaterial(projectId, ssh.id)).toMatchObject({
      type: 'ssh',
      login: 'git',
      private_key: PRIVATE_KEY,
    });

    expect(
      (
        await t.request('PUT', `${base}/keys/${ssh.id}`, {
          as: t.adminCookie,
          body: { id: ssh.id, name: 'deploy 2', type: 'ssh' },
        })
      ).status,
    ).toBe(204);
    expect(await t.runtime.services.keys.getMaterial(projectId, ssh.id)).toMatchObject({ private_key: PRIVATE_KEY });
    const override = await t.request('PUT', `${base}/keys/${ssh.id}`, {
      as: t.adminCookie,
      body: { name: 'deploy 2', type: 'ssh', override_secret: true, ssh: { private_key: `${PRIVATE_KEY}\n` } },
    });
    expect(override.status).toBe(204);
    expect(await t.runtime.services.keys.getMaterial(projectId, ssh.id)).toMatchObject({
      private_key: `${PRIVATE_KEY}\n`,
      passphrase: '',
    });
    const typeChange = await t.request('PUT', `${base}/keys/${ssh.id}`, {
      as: t.adminCookie,
      body: { name: 'deploy 2', type: 'login_password' },
    });
    expect(typeChange.body).toMatchObject({ error: 'A new secret is required when the type changes' });

    const sorted = (await t.request('GET', `${base}/keys?sort=type&order=desc`, { as: t.adminCookie })).body as {
      type: string;
    }[];
    expect(sorted.map((k) => k.type)).toEqual(['ssh', 'none', 'login_password']);
  });

  it('repositories: URL kinds and branch rules of the seed', async () => {
    const withUrl = (gitUrl: string) => ({ name: 'r', git_url: gitUrl, git_branch: 'main', ssh_key_id: ids.key });
    // Every URL without a scheme is ssh; what git would take for an option or a remote helper is no URL.
    for (const gitUrl of ['tmp/path', 'host:repo.git'])
      await post('/repositories', { ...withUrl(gitUrl), name: gitUrl });
    await expectRefusals('/repositories', [
      ...[
        'ftp://example.com/x.git',
        '-uhelp',
        'ext::sh -c id',
        'ext::x',
        // Credentials in a URL no parser reads could be neither used nor kept from view.
        'https://alice:tok/en@host/r.git',
        'https://alice:tok@host:99999/r.git',
      ].map((gitUrl): Refusal => [withUrl(gitUrl), 'Incorrect URL']),
      [{ ...withUrl('https://example.com/x.git'), git_branch: '' }, 'Branch is required'],
      [{ name: 'r', git_url: '/srv/repo' }, 'Access key is required'],
      [{ name: 'r', git_url: '/srv/repo', ssh_key_id: 999999 }, 'Access key not found in this project'],
    ]);

    for (const url of [
      'git@github.com:org/repo.git',
      'ssh://git@host/repo.git',
      'git://host/repo.git',
      'file:///srv/repo.git',
      'http://h/r.git',
      'https://h/r.git',
    ]) {
      await post('/repositories', { name: url, git_url: url, git_branch: 'main', ssh_key_id: ids.key });
    }
    // A local path keeps the branch it is sent with, as in Semaphore (its tasks use the path in place).
    const local = await post('/repositories', {
      name: 'local',
      git_url: '/srv/repo',
      git_branch: 'master',
      ssh_key_id: ids.key,
    });
    expect(local).toMatchObject({ git_url: '/srv/repo', git_branch: 'master' });
    expect((await t.request('GET', `${base}/repositories/${local.id}`, { as: t.adminCookie })).body).toMatchObject({
      git_branch: 'master',
    });
    const withoutBranch = { name: 'local', git_url: '/srv/repo', ssh_key_id: ids.key };
    expect(
      (await t.request('PUT', `${base}/repositories/${local.id}`, { as: t.adminCookie, body: withoutBranch })).status,
    ).toBe(204);
    expect((await t.request('GET', `${base}/repositories/${local.id}`, { as: t.adminCookie })).body).toMatchObject({
      git_branch: '',
    });
    ids.repository = local.id;
  });

  it('repositories: credentials written into a URL are shown only to who manages the resources, in lists, items and backups', async () => {
    const urls = {
      'https://deploy:Url-Pass-77@git.example.com/r.git': 'https://git.example.com/r.git',
      'http://ghp_UrlToken77@git.example.com:8080/org/r.git': 'http://git.example.com:8080/org/r.git',
      'ssh://git:Ssh-Pass-77@git.example.com/r.git': 'ssh://git@git.example.com/r.git',
      'git@github.com:org/plain.git': 'git@github.com:org/plain.git',
    };
    const created: { id: number; git_url: string }[] = [];
    for (const [index, url] of Object.keys(urls).entries())
      created.push(
        (await post('/repositories', {
          name: `creds ${index}`,
          git_url: url,
          git_branch: 'main',
          ssh_key_id: ids.key,
        })) as { id: number; git_url: string },
      );
    const manager = await t.createUser(`repo-manager-${dialect}`);
    await addMember(t, base, manager.id, 'manager');
    for (const role of ['guest', 'task_runner']) {
      const reader = await t.createUser(`repo-${role}-${dialect}`);
      await addMember(t, base, reader.id, role);
      const listed = (await t.request('GET', `${base}/repositories`, { as: reader.cookie })).body as {
        git_url: string;
      }[];
      const backup = (await t.request('GET', `${base}/backup`, { as: reader.cookie })).body as {
        repositories: { git_url: string }[];
      };
      for (const [url, shown] of Object.entries(urls)) {
        const id = created.find((repository) => repository.git_url === url)?.id;
        const item = (await t.request('GET', `${base}/repositories/${id}`, { as: reader.cookie })).body;
        expect(item, role).toMatchObject({ git_url: shown });
        expect(
          listed.map((repository) => repository.git_url),
          role,
        ).toContain(shown);
        expect(
          backup.repositories.map((repository) => repository.git_url),
          role,
        ).toContain(shown);
      }
      for (const text of [JSON.stringify(listed), JSON.stringify(backup)])
        expect(text).not.toMatch(/Url-Pass|UrlToken|Ssh-Pass/);
    }
    for (const as of [manager.cookie, t.adminCookie]) {
      const listed = (await t.request('GET', `${base}/repositories`, { as })).body as { git_url: string }[];
      expect(listed.map((repository) => repository.git_url)).toEqual(expect.arrayContaining(Object.keys(urls)));
      const backup = (await t.request('GET', `${base}/backup`, { as })).body as { repositories: { git_url: string }[] };
      expect(backup.repositories.map((repository) => repository.git_url)).toEqual(
        expect.arrayContaining(Object.keys(urls)),
      );
    }
    for (const { id } of created) await t.request('DELETE', `${base}/repositories/${id}`, { as: t.adminCookie });
  });

  it('inventories: static, static-yaml and file, with credentials required and paths kept inside the repository', async () => {
    const fileInventory = (path: string) => ({ name: 'i', type: 'file', inventory: path, ssh_key_id: ids.key });
    await expectRefusals('/inventory', [
      [{ name: 'i', type: 'static', inventory: 'localhost' }, 'User credentials are required'],
      ...['/etc/hosts', '../outside', 'a/../../b'].map((path): Refusal => [
        fileInventory(path),
        'Invalid inventory file pathname. Must be: path/to/inventory.',
      ]),
      [fileInventory(''), 'Path is required'],
    ]);
    await post('/inventory', { name: 'i', type: 'dynamic', ssh_key_id: ids.key }, 400);

    const ini = await post('/inventory', {
      name: 'hosts',
      type: 'static',
      inventory: '[web]\nlocalhost ansible_connection=local',
      ssh_key_id: ids.key,
      become_key_id: ids.loginKey,
    });
    ids.inventory = ini.id;
    await post('/inventory', {
      name: 'yaml',
      type: 'static-yaml',
      inventory: 'all:\n  hosts:\n    localhost:',
      ssh_key_id: ids.key,
    });
    const file = await post('/inventory', {
      name: 'file',
      type: 'file',
      inventory: 'inventories/prod.ini',
      ssh_key_id: ids.key,
      repository_id: ids.repository,
    });
    expect(file).toMatchObject({ inventory: 'inventories/prod.ini', repository_id: ids.repository });
    const forAnsible = (await t.request('GET', `${base}/inventory?app=ansible`, { as: t.adminCookie }))
      .body as unknown[];
    expect(forAnsible).toHaveLength(3);
    expect((await t.request('GET', `${base}/inventory?app=terraform`, { as: t.adminCookie })).body).toEqual([]);
  });

  it('variable groups: JSON validation, secrets created, updated and deleted, values never returned', async () => {
    await expectRefusals('/environment', [
      [{ name: 'e', json: '{bad' }, 'Extra variables must be valid JSON'],
      [{ name: 'e', json: '{}', env: '{"A": {"nested": 1}}' }, 'Environment variables must be valid JSON'],
      [{ name: '', json: '{}' }, 'Name is required'],
    ]);

    const group = await post('/environment', {
      name: 'prod',
      json: '{"region": "eu", "replicas": {"web": 2}}',
      env: '{"APP_ENV": "production"}',
      secrets: [
        { operation: 'create', type: 'env', name: 'DB_PASSWORD', secret: 'db-Password-7' },
        { operation: 'create', type: 'var', name: 'api_token', secret: 'env-Secret-5' },
      ],
    });
    ids.environment = group.id;
    const fetched = (await t.request('GET', `${base}/environment/${group.id}`, { as: t.adminCookie })).body as {
      secrets: { id: number; name: string; secret: string }[];
    };
    expect(fetched.secrets.map((s) => [s.name, s.secret])).toEqual([
      ['DB_PASSWORD', ''],
      ['api_token', ''],
    ]);
    const [dbSecret, tokenSecret] = fetched.secrets;
    const updated = await t.request('PUT', `${base}/environment/${group.id}`, {
      as: t.adminCookie,
      body: {
        name: 'prod',
        json: '{}',
        env: '{}',
        secrets: [
          { id: dbSecret?.id, operation: 'update', secret: 'db-Password-8' },
          { id: tokenSecret?.id, operation: 'delete' },
          { id: 0, name: 'untouched', type: 'env', secret: '', operation: '' },
        ],
      },
    });
    expect(updated.status).toBe(204);
    t.secrets.add('db-Password-8');
    expect(await t.runtime.services.environments.listSecretValues(projectId, group.id)).toEqual([
      { type: 'env', name: 'DB_PASSWORD', value: 'db-Password-8' },
    ]);
    const list = (await t.request('GET', `${base}/environment`, { as: t.adminCookie })).body as Record<
      string,
      unknown
    >[];
    // The list names each group's secrets as Semaphore's does, never their values.
    expect(list.find((e) => e.id === group.id)).toMatchObject({
      password: null,
      secrets: [{ name: 'DB_PASSWORD', type: 'env', secret: '' }],
    });
  });

  it('variable groups: an update renames a secret as Semaphore 2.16 does, checked like a new one, keeping its type and, sent empty, its value', async () => {
    const group = await post('/environment', {
      name: 'renames',
      secrets: [
        { operation: 'create', type: 'env', name: 'FIRST', secret: 'first-Value-1' },
        { operation: 'create', type: 'env', name: 'SECOND', secret: 'second-Value-2' },
        { operation: 'create', type: 'var', name: 'token', secret: 'token-Value-3' },
      ],
    });
    for (const secret of ['first-Value-1', 'second-Value-2', 'token-Value-3', 'second-Value-4']) t.secrets.add(secret);
    const read = async () =>
      (
        (await t.request('GET', `${base}/environment/${group.id}`, { as: t.adminCookie })).body as {
          secrets: { id: number; type: string; name: string }[];
        }
      ).secrets;
    const values = () => t.runtime.services.environments.listSecretValues(projectId, group.id);
    const [first, second, token] = await read();
    const put = (secrets: unknown[]) =>
      t.request('PUT', `${base}/environment/${group.id}`, {
        as: t.adminCookie,
        body: { id: group.id, name: 'renames', json: '{"changed": true}', env: '{}', secrets },
      });
    const update = (id: number | undefined, name: string, extra: Record<string, unknown> = {}) => ({
      id,
      name,
      operation: 'update',
      secret: '',
      type: 'env',
      ...extra,
    });

    // A new name is refused as the same name of a new secret is, with the same message.
    for (const name of ['NOT VALID', '1ST', '  ', 'x'.repeat(256)]) {
      const created = await post(
        '/environment',
        {
          name: 'refused',
          secrets: [{ operation: 'create', type: 'env', name, secret: 'x' }],
        },
        400,
      );
      const response = await put([update(first?.id, name)]);
      expect(response.status, name).toBe(400);
      expect(response.body, name).toEqual(created);
    }
    const refusals: [unknown[], string][] = [
      // Names stay unique per type, whatever order the changes come in.
      [[update(first?.id, 'SECOND')], 'Secret SECOND already exists'],
      [
        [update(first?.id, 'NEW'), { operation: 'create', type: 'env', name: 'NEW', secret: 'x' }],
        'Secret NEW already exists',
      ],
      [
        [{ id: second?.id, operation: 'delete' }, update(second?.id, 'GONE')],
        `Secret ${second?.id} not found in this variable group`,
      ],
    ];
    for (const [secrets, error] of refusals) {
      const response = await put(secrets);
      expect(response.status, JSON.stringify(secrets)).toBe(400);
      expect(response.body, JSON.stringify(secrets)).toMatchObject({ error });
    }
    // A refused request changes nothing, neither the secrets nor the group.
    expect(await read()).toEqual([first, second, token]);
    expect((await t.request('GET', `${base}/environment/${group.id}`, { as: t.adminCookie })).body).toMatchObject({
      json: '{}',
    });

    // An empty secret keeps the value; the type stays env although the client sends var; a var name needs no shell rule.
    expect((await put([update(first?.id, 'RENAMED', { type: 'var' }), update(token?.id, 'api-token')])).status).toBe(
      204,
    );
    expect(await values()).toEqual([
      { type: 'env', name: 'RENAMED', value: 'first-Value-1' },
      { type: 'env', name: 'SECOND', value: 'second-Value-2' },
      { type: 'var', name: 'api-token', value: 'token-Value-3' },
    ]);

    // The Terraform provider removes the first of two secrets by renaming it to the second and deleting the second.
    const response = await put([
      update(first?.id, 'SECOND', { secret: 'second-Value-4' }),
      { id: second?.id, name: 'SECOND', operation: 'delete', secret: '', type: 'env' },
    ]);
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect(await read()).toEqual([
      expect.objectContaining({ id: first?.id, type: 'env', name: 'SECOND' }),
      expect.objectContaining({ id: token?.id, name: 'api-token' }),
    ]);
    expect(await values()).toEqual([
      { type: 'env', name: 'SECOND', value: 'second-Value-4' },
      { type: 'var', name: 'api-token', value: 'token-Value-3' },
    ]);
  });

  it('views: created at the position sent (0 without one, as in Semaphore), reordered by positions, removed without harming templates', async () => {
    expect((await t.request('POST', `${base}/views`, { as: t.adminCookie, body: { title: '' } })).body).toMatchObject({
      error: 'Title is required',
    });
    const first = await post('/views', { title: 'Build' });
    const second = await post('/views', { title: 'Deploy', position: 1 });
    // Go clients leave a position of 0 out and keep what the response says: a later view is not appended.
    const third = await post('/views', { title: 'Test' });
    expect([first.position, second.position, third.position]).toEqual([0, 1, 0]);
    expect((await t.request('GET', `${base}/views/${third.id}`, { as: t.adminCookie })).body).toMatchObject({
      position: 0,
    });
    await t.request('DELETE', `${base}/views/${third.id}`, { as: t.adminCookie });
    expect(
      (
        await t.request('POST', `${base}/views/positions`, {
          as: t.adminCookie,
          body: { [first.id]: 1, [second.id]: 0 },
        })
      ).status,
    ).toBe(204);
    const views = (await t.request('GET', `${base}/views`, { as: t.adminCookie })).body as { title: string }[];
    expect(views.map((v) => v.title)).toEqual(['Deploy', 'Build']);
    expect(
      (await t.request('POST', `${base}/views/positions`, { as: t.adminCookie, body: { 999999: 0 } })).status,
    ).toBe(400);
    expect(
      (await t.request('PUT', `${base}/views/${first.id}`, { as: t.adminCookie, body: { title: 'Builds' } })).status,
    ).toBe(204);
  });

  const templateBody = () => ({
    name: 'Deploy site',
    app: 'ansible',
    playbook: 'site.yml',
    inventory_id: ids.inventory,
    repository_id: ids.repository,
    environment_id: ids.environment,
    arguments: '["--forks", "5"]',
    allow_override_args_in_task: true,
    survey_vars: [
      { name: 'version', title: 'Version', type: '', required: true },
      { name: 'count', title: 'Count', type: 'int', default_value: '3' },
      enumSurveyVar('target', 'Target', { Staging: 'stg', Production: 'prod' }),
    ],
    vaults: [
      { name: '', type: 'password', vault_key_id: ids.loginKey },
      { name: 'Prod', type: 'script', script: 'vault/get-pass-client.py' },
    ],
  });

  it('templates: every field saved and read back, with vaults and survey variables', async () => {
    const template = await post('/templates', templateBody());
    expect(template).toMatchObject({
      name: 'Deploy site',
      app: 'ansible',
      type: '',
      arguments: '["--forks", "5"]',
      allow_override_args_in_task: true,
      last_task: null,
      vaults: [
        { name: '', type: 'password', vault_key_id: ids.loginKey, script: '' },
        { name: 'prod', type: 'script', vault_key_id: null, script: 'vault/get-pass-client.py' },
      ],
    });
    expect((template.survey_vars as unknown[]).length).toBe(3);
    const views = (await t.request('GET', `${base}/views`, { as: t.adminCookie })).body as { id: number }[];
    const viewId = views[0]?.id ?? 0;
    const updated = await t.request('PUT', `${base}/templates/${template.id}`, {
      as: t.adminCookie,
      body: { ...templateBody(), id: template.id, view_id: viewId, description: 'Ships it', vaults: [] },
    });
    expect(updated.status).toBe(204);
    const got = (await t.request('GET', `${base}/templates/${template.id}`, { as: t.adminCookie })).body;
    expect(got).toMatchObject({ view_id: viewId, description: 'Ships it', vaults: [] });
    expect((await t.request('GET', `${base}/views/${viewId}/templates`, { as: t.adminCookie })).body).toEqual([
      expect.objectContaining({ id: template.id }),
    ]);
    expect((await t.request('GET', `${base}/templates?app=bash`, { as: t.adminCookie })).body).toEqual([]);
  });

  it('templates: the validation rules and messages of the seed', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ playbook: '' }, 'Playbook filename is required'],
      [{ app: 'bash', playbook: '' }, 'Script filename is required'],
      [{ inventory_id: null }, 'Inventory is required'],
      [{ repository_id: null }, 'Repository is required'],
      [{ environment_id: null }, 'Variable group is required'],
      [{ type: 'build' }, 'Start version is required'],
      [{ type: 'deploy' }, 'Build template is required'],
      [{ arguments: '{"not": "a list"}' }, 'CLI args must be a JSON array of strings'],
      [{ app: 'cobol' }, 'Invalid app id: cobol'],
      [{ survey_vars: [{ name: ' ', title: 'T' }] }, 'Name is required'],
      [{ survey_vars: [{ name: 'n', title: '' }] }, 'Title is required'],
      ...['PATH=/tmp/evil:', 'a b', 'tab\there', 'bell\u0007'].map((name): [Record<string, unknown>, string] => [
        { survey_vars: [{ name, title: 'T' }] },
        'Name cannot hold =, spaces or control characters',
      ]),
      [{ survey_vars: [{ name: 'n', title: 'T', type: 'enum', values: [] }] }, 'Enumeration must have values.'],
      [
        {
          survey_vars: [
            {
              name: 'n',
              title: 'T',
              type: 'enum',
              values: [
                { name: 'a', value: '1' },
                { name: 'a', value: '2' },
              ],
            },
          ],
        },
        'Enumeration values must have unique names.',
      ],
      [
        { survey_vars: [{ name: 'n', title: 'T', type: 'enum', values: [{ name: '', value: '1' }] }] },
        'Value name cannot be empty.',
      ],
      [{ survey_vars: [{ name: 'n', title: 'T', type: 'int', default_value: '12a' }] }, 'Must be integer'],
      [
        {
          vaults: [
            { name: '', type: 'password', vault_key_id: ids.loginKey },
            { name: ' ', type: 'password', vault_key_id: ids.loginKey },
          ],
        },
        'Vault names must be unique; only one vault may have no name',
      ],
      [{ vaults: [{ name: 'a', type: 'password' }] }, 'Vault password is required'],
      [
        { vaults: [{ name: 'a', type: 'script', script: 'vault.sh' }] },
        'Script name must end with -client (an extension is allowed)',
      ],
      [
        { vaults: [{ name: 'a', type: 'password', vault_key_id: ids.key }] },
        'Vault password key must be a login with password key',
      ],
      [{ inventory_id: 999999 }, 'Inventory not found in this project'],
    ];
    for (const [change, error] of cases) {
      const response = await t.request('POST', `${base}/templates`, {
        as: t.adminCookie,
        body: { ...templateBody(), ...change },
      });
      expect(response.status, JSON.stringify(change)).toBe(400);
      expect(response.body, JSON.stringify(change)).toMatchObject({ error });
    }
  });

  it('templates: build and deploy types keep only their own fields', async () => {
    const build = await post('/templates', {
      ...templateBody(),
      name: 'Build',
      type: 'build',
      start_version: '1.0.0',
      build_template_id: 5,
    });
    expect(build).toMatchObject({ type: 'build', start_version: '1.0.0', build_template_id: null });
    const deploy = await post('/templates', {
      ...templateBody(),
      name: 'Deploy',
      type: 'deploy',
      build_template_id: build.id,
      autorun: true,
      start_version: '9',
    });
    expect(deploy).toMatchObject({ type: 'deploy', build_template_id: build.id, autorun: true, start_version: null });
    expect(
      await post('/templates', { ...templateBody(), type: 'deploy', build_template_id: deploy.id }, 400),
    ).toMatchObject({ error: 'Build template must be a build template of this project' });
    const refs = (await t.request('GET', `${base}/templates/${build.id}/refs`, { as: t.adminCookie })).body;
    expect(refs).toMatchObject({ templates: [{ id: deploy.id, name: 'Deploy' }] });
    expect((await t.request('DELETE', `${base}/templates/${build.id}`, { as: t.adminCookie })).body).toMatchObject({
      code: 'in_use',
    });
    expect((await t.request('DELETE', `${base}/templates/${deploy.id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('DELETE', `${base}/templates/${build.id}`, { as: t.adminCookie })).status).toBe(204);
  });

  it('refs name the users of a resource, and deleting a used resource is refused with nothing deleted', async () => {
    const keyRefs = (await t.request('GET', `${base}/keys/${ids.key}/refs`, { as: t.adminCookie })).body as {
      inventories: unknown[];
      repositories: unknown[];
    };
    expect(keyRefs.inventories.length).toBeGreaterThan(0);
    expect(keyRefs.repositories.length).toBeGreaterThan(0);
    const refused = await t.request('DELETE', `${base}/keys/${ids.key}`, { as: t.adminCookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'in_use',
      error: expect.stringMatching(/^Access key cannot be deleted because it is used by/),
    });
    expect((await t.request('GET', `${base}/keys/${ids.key}`, { as: t.adminCookie })).status).toBe(200);

    for (const [path, id] of [
      ['inventory', ids.inventory],
      ['environment', ids.environment],
      ['repositories', ids.repository],
    ] as const) {
      const refs = (await t.request('GET', `${base}/${path}/${id}/refs`, { as: t.adminCookie })).body as {
        templates: { name: string }[];
      };
      expect(refs.templates.map((x) => x.name)).toEqual(['Deploy site']);
      expect((await t.request('DELETE', `${base}/${path}/${id}`, { as: t.adminCookie })).body).toMatchObject({
        code: 'in_use',
      });
    }
    const unused = await post('/keys', { name: 'spare', type: 'none' });
    expect((await t.request('GET', `${base}/keys/${unused.id}/refs`, { as: t.adminCookie })).body).toEqual(emptyRefs());
    expect((await t.request('DELETE', `${base}/keys/${unused.id}`, { as: t.adminCookie })).status).toBe(204);
  });

  it('resources of one project are invisible from another', async () => {
    const other = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Other' } });
    const otherBase = `/api/project/${(other.body as { id: number }).id}`;
    for (const path of [
      `keys/${ids.key}`,
      `repositories/${ids.repository}`,
      `inventory/${ids.inventory}`,
      `environment/${ids.environment}`,
    ]) {
      expect((await t.request('GET', `${otherBase}/${path}`, { as: t.adminCookie })).status, path).toBe(404);
      expect((await t.request('DELETE', `${otherBase}/${path}`, { as: t.adminCookie })).status, path).toBe(404);
    }
    const borrowed = await t.request('POST', `${otherBase}/repositories`, {
      as: t.adminCookie,
      body: { name: 'r', git_url: '/srv/x', ssh_key_id: ids.key },
    });
    expect(borrowed.body).toMatchObject({ error: 'Access key not found in this project' });
  });

  it("refuses another project's inventory inside task_params of templates, schedules and integrations", async () => {
    const other = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Params elsewhere' } });
    const otherBase = `/api/project/${(other.body as { id: number }).id}`;
    const [noneKey] = (await t.request('GET', `${otherBase}/keys`, { as: t.adminCookie })).body as { id: number }[];
    const foreign = await t.request('POST', `${otherBase}/inventory`, {
      as: t.adminCookie,
      body: { name: 'theirs', type: 'static', inventory: 'localhost', ssh_key_id: noneKey?.id },
    });
    expect(foreign.status, foreign.text).toBe(201);
    const foreignId = (foreign.body as { id: number }).id;
    const template = await post('/templates', { ...templateBody(), name: 'Params template' });
    const schedule = await post('/schedules', {
      name: 'Params schedule',
      template_id: template.id,
      cron_format: '0 0 * * *',
    });
    const integration = await post('/integrations', { name: 'Params hook', template_id: template.id });
    const bodies = {
      templates: { ...templateBody(), name: 'Params template' },
      schedules: { name: 'Params schedule', template_id: template.id, cron_format: '0 0 * * *' },
      integrations: { name: 'Params hook', template_id: template.id },
    };
    const existing = { templates: template.id, schedules: schedule.id, integrations: integration.id };
    for (const [path, body] of Object.entries(bodies) as [keyof typeof bodies, Record<string, unknown>][]) {
      for (const inventoryId of [foreignId, 999999]) {
        const withParams = { ...body, task_params: { inventory_id: inventoryId } };
        for (const [method, url] of [
          ['POST', `${base}/${path}`],
          ['PUT', `${base}/${path}/${existing[path]}`],
        ] as const) {
          const response = await t.request(method, url, { as: t.adminCookie, body: withParams });
          expect(response.status, `${method} ${path} ${inventoryId}`).toBe(400);
          expect(response.body).toMatchObject({ error: 'Inventory not found in this project' });
        }
      }
      const own = await t.request('PUT', `${base}/${path}/${existing[path]}`, {
        as: t.adminCookie,
        body: { ...body, task_params: { inventory_id: ids.inventory } },
      });
      expect(own.status, `${path}: ${own.text}`).toBe(204);
      const saved = (await t.request('GET', `${base}/${path}/${existing[path]}`, { as: t.adminCookie })).body;
      expect(saved).toMatchObject({ task_params: { inventory_id: ids.inventory } });
    }
    const templateParams = { ...bodies.templates, task_params: { inventory_id: 'theirs' } };
    expect(await post('/templates', templateParams, 400)).toMatchObject({
      error: 'Inventory not found in this project',
    });
    for (const [path, id] of Object.entries(existing))
      await t.request('DELETE', `${base}/${path}/${id}`, { as: t.adminCookie });
  });
});

describe.each(dialects)('apps on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('lists the default apps by priority; admins add, edit, toggle and delete custom ones', async () => {
    const apps = (await t.request('GET', '/api/apps', { as: t.adminCookie })).body as { id: string; active: boolean }[];
    expect(apps.map((a) => a.id)).toEqual(['ansible', 'terraform', 'tofu', 'pulumi', 'bash', 'powershell', 'python']);
    expect(apps.every((a) => a.active)).toBe(true);

    expect((await t.request('POST', '/api/apps', { as: t.adminCookie, body: { id: '' } })).body).toMatchObject({
      error: 'ID is required',
    });
    const created = await t.request('POST', '/api/apps', {
      as: t.adminCookie,
      body: { id: 'node', title: 'Node.js', path: 'node', args: ['--enable-source-maps'], priority: 100 },
    });
    expect(created.status).toBe(201);
    expect((await t.request('POST', '/api/apps', { as: t.adminCookie, body: { id: 'node' } })).status).toBe(409);
    expect((await t.request('PUT', '/api/apps/node', { as: t.adminCookie, body: { title: 'Node' } })).status).toBe(204);
    expect(
      (await t.request('POST', '/api/apps/node/active', { as: t.adminCookie, body: { active: false } })).status,
    ).toBe(204);
    expect((await t.request('GET', '/api/apps/node', { as: t.adminCookie })).body).toMatchObject({
      title: 'Node',
      active: false,
      args: ['--enable-source-maps'],
    });
    expect((await t.request('DELETE', '/api/apps/bash', { as: t.adminCookie })).status).toBe(400);
    expect((await t.request('DELETE', '/api/apps/node', { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('GET', '/api/apps/node', { as: t.adminCookie })).status).toBe(404);
  });

  it('takes a PUT of an app that changes nothing as done, as every other PUT that changes nothing', async () => {
    const before = (await t.request('GET', '/api/apps/ansible', { as: t.adminCookie })).body;
    for (const body of [{}, { name: null }, { id: 'ansible' }, { unknown: 'ignored' }]) {
      const put = await t.request('PUT', '/api/apps/ansible', { as: t.adminCookie, body });
      expect(put.status, `${JSON.stringify(body)}: ${put.text}`).toBe(204);
    }
    expect((await t.request('GET', '/api/apps/ansible', { as: t.adminCookie })).body).toEqual(before);
    expect((await t.request('PUT', '/api/apps/nothing-here', { as: t.adminCookie, body: {} })).status).toBe(404);
  });

  it('every store update with nothing to set (users, projects, runners, apps) changes nothing and succeeds', async () => {
    const db = t.runtime.connection.db;
    const user = await t.createUser('unchanged');
    await createUsersRepository(db, dialect).update(user.id, {});
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Unchanged' } });
    const projectId = (project.body as { id: number }).id;
    await createProjectsRepository(db, dialect).update(projectId, {});
    const runner = await t.request('POST', '/api/runners', { as: t.adminCookie, body: { name: 'unchanged' } });
    expect(runner.status, runner.text).toBe(201);
    await createRunnersRepository(db, dialect).update((runner.body as { id: number }).id, {});
    await createAppsRepository(db).update('bash', {});
    expect((await t.request('GET', `/api/users/${user.id}`, { as: t.adminCookie })).body).toMatchObject({
      username: 'unchanged',
    });
    expect((await t.request('GET', `/api/project/${projectId}`, { as: t.adminCookie })).body).toMatchObject({
      name: 'Unchanged',
    });
  });

  it('only admins change apps', async () => {
    const user = await t.createUser('appuser');
    expect((await t.request('GET', '/api/apps', { as: user.cookie })).status).toBe(200);
    expect((await t.request('POST', '/api/apps', { as: user.cookie, body: { id: 'x' } })).status).toBe(403);
    expect(
      (await t.request('POST', '/api/apps/bash/active', { as: user.cookie, body: { active: false } })).status,
    ).toBe(403);
    expect((await t.request('DELETE', '/api/apps/bash', { as: user.cookie })).status).toBe(403);
  });
});
