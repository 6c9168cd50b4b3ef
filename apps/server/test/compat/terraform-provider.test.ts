import { beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from '../task-fixture.ts';
import { useTestApp } from '../test-app.ts';
import { listTestDialects } from '../test-databases.ts';
import { explainFieldMismatches } from './semaphore-fields.ts';

const dialects = await listTestDialects();

type Json = Record<string, unknown>;

interface OperationSpec {
  method: string;
  path: string;
  status: number;
  decodes?: string;
}

type CollectionPart = 'create' | 'list' | 'read' | 'update' | 'delete';

/** go-swagger's name of an operation on a project collection: its method, then the words of its path. */
type CollectionOperationName<P extends CollectionPart, C extends string, I extends string> = {
  create: `PostProjectProjectID${C}`;
  list: `GetProjectProjectID${C}`;
  read: `GetProjectProjectID${C}${I}`;
  update: `PutProjectProjectID${C}${I}`;
  delete: `DeleteProjectProjectID${C}${I}`;
}[P];

/** The parts of a collection the provider manages without listing it. */
const ITEM_ONLY = ['create', 'read', 'update', 'delete'] as const;

/**
 * The operations the provider calls on one collection of a project (all five parts unless `parts` says which), as
 * go-swagger declares them: create answers 201 with the model, list 200 with a list of it, read 200 with it, update
 * and delete 204. `itemPath` is the item's path below the project (`repositories/{repository_id}`).
 */
function projectCollection<C extends string, I extends string, P extends CollectionPart = CollectionPart>(
  collection: C,
  item: I,
  itemPath: string,
  model: string,
  parts: readonly P[] = ['create', 'list', 'read', 'update', 'delete'] as P[],
): Record<CollectionOperationName<P, C, I>, OperationSpec> {
  const path = `/project/{project_id}/${itemPath.slice(0, itemPath.indexOf('/'))}`;
  const one = `/project/{project_id}/${itemPath}`;
  const operations: Record<CollectionPart, [name: string, spec: OperationSpec]> = {
    create: [`PostProjectProjectID${collection}`, { method: 'POST', path, status: 201, decodes: model }],
    list: [`GetProjectProjectID${collection}`, { method: 'GET', path, status: 200, decodes: `${model}[]` }],
    read: [`GetProjectProjectID${collection}${item}`, { method: 'GET', path: one, status: 200, decodes: model }],
    update: [`PutProjectProjectID${collection}${item}`, { method: 'PUT', path: one, status: 204 }],
    delete: [`DeleteProjectProjectID${collection}${item}`, { method: 'DELETE', path: one, status: 204 }],
  };
  return Object.fromEntries(parts.map((part) => operations[part])) as Record<
    CollectionOperationName<P, C, I>,
    OperationSpec
  >;
}

/**
 * Every operation the community Terraform provider (CruGlobal/terraform-provider-semaphoreui) calls, as
 * its go-swagger client declares it: method, path pattern (trailing slashes included), the status codes
 * its generated reader accepts (any other is an error to the provider) and the model it decodes.
 */
const PROVIDER_OPERATIONS = {
  PostProjects: { method: 'POST', path: '/projects', status: 201, decodes: 'Project' },
  GetProjects: { method: 'GET', path: '/projects', status: 200, decodes: 'Project[]' },
  GetProjectProjectID: { method: 'GET', path: '/project/{project_id}/', status: 200, decodes: 'Project' },
  PutProjectProjectID: { method: 'PUT', path: '/project/{project_id}/', status: 204 },
  DeleteProjectProjectID: { method: 'DELETE', path: '/project/{project_id}/', status: 204 },
  PostUsers: { method: 'POST', path: '/users', status: 201, decodes: 'User' },
  GetUsers: { method: 'GET', path: '/users', status: 200, decodes: 'User[]' },
  GetUsersUserID: { method: 'GET', path: '/users/{user_id}/', status: 200, decodes: 'User' },
  PutUsersUserID: { method: 'PUT', path: '/users/{user_id}/', status: 204 },
  PostUsersUserIDPassword: { method: 'POST', path: '/users/{user_id}/password', status: 204 },
  DeleteUsersUserID: { method: 'DELETE', path: '/users/{user_id}/', status: 204 },
  PostProjectProjectIDUsers: { method: 'POST', path: '/project/{project_id}/users', status: 204 },
  GetProjectProjectIDUsers: {
    method: 'GET',
    path: '/project/{project_id}/users',
    status: 200,
    decodes: 'ProjectUser[]',
  },
  PutProjectProjectIDUsersUserID: { method: 'PUT', path: '/project/{project_id}/users/{user_id}', status: 204 },
  DeleteProjectProjectIDUsersUserID: { method: 'DELETE', path: '/project/{project_id}/users/{user_id}', status: 204 },
  ...projectCollection('Keys', 'KeyID', 'keys/{key_id}', 'AccessKey', ['create', 'list', 'update', 'delete']),
  ...projectCollection('Repositories', 'RepositoryID', 'repositories/{repository_id}', 'Repository'),
  ...projectCollection('Inventory', 'InventoryID', 'inventory/{inventory_id}', 'Inventory'),
  ...projectCollection('Environment', 'EnvironmentID', 'environment/{environment_id}', 'Environment', ITEM_ONLY),
  ...projectCollection('Views', 'ViewID', 'views/{view_id}', 'View'),
  ...projectCollection('Templates', 'TemplateID', 'templates/{template_id}', 'Template'),
  ...projectCollection('Schedules', 'ScheduleID', 'schedules/{schedule_id}', 'Schedule', ITEM_ONLY),
  ...projectCollection('Integrations', 'IntegrationID', 'integrations/{integration_id}', 'Integration'),
  PostProjectProjectIDIntegrationsIntegrationIDAliases: {
    method: 'POST',
    path: '/project/{project_id}/integrations/{integration_id}/aliases',
    status: 200,
    decodes: 'IntegrationAlias',
  },
  GetProjectProjectIDIntegrationsIntegrationIDAliases: {
    method: 'GET',
    path: '/project/{project_id}/integrations/{integration_id}/aliases',
    status: 200,
    decodes: 'IntegrationAlias[]',
  },
  DeleteProjectProjectIDIntegrationsIntegrationIDAliasesAliasID: {
    method: 'DELETE',
    path: '/project/{project_id}/integrations/{integration_id}/aliases/{alias_id}',
    status: 204,
  },
  PostProjectProjectIDIntegrationsAliases: {
    method: 'POST',
    path: '/project/{project_id}/integrations/aliases',
    status: 200,
    decodes: 'IntegrationAlias',
  },
  GetProjectProjectIDIntegrationsAliases: {
    method: 'GET',
    path: '/project/{project_id}/integrations/aliases',
    status: 200,
    decodes: 'IntegrationAlias[]',
  },
  DeleteProjectProjectIDIntegrationsAliasesAliasID: {
    method: 'DELETE',
    path: '/project/{project_id}/integrations/aliases/{alias_id}',
    status: 204,
  },
} as const satisfies Record<string, OperationSpec>;

type Operation = keyof typeof PROVIDER_OPERATIONS;

/** The operations the provider calls on one kind of project resource, and the parameter naming one. */
const PROJECT_RESOURCES = {
  repository: {
    idParam: 'repository_id',
    create: 'PostProjectProjectIDRepositories',
    update: 'PutProjectProjectIDRepositoriesRepositoryID',
    read: 'GetProjectProjectIDRepositoriesRepositoryID',
    list: 'GetProjectProjectIDRepositories',
  },
  inventory: {
    idParam: 'inventory_id',
    create: 'PostProjectProjectIDInventory',
    update: 'PutProjectProjectIDInventoryInventoryID',
    read: 'GetProjectProjectIDInventoryInventoryID',
    list: 'GetProjectProjectIDInventory',
  },
  view: {
    idParam: 'view_id',
    create: 'PostProjectProjectIDViews',
    update: 'PutProjectProjectIDViewsViewID',
    read: 'GetProjectProjectIDViewsViewID',
    list: 'GetProjectProjectIDViews',
  },
  integration: {
    idParam: 'integration_id',
    create: 'PostProjectProjectIDIntegrations',
    update: 'PutProjectProjectIDIntegrationsIntegrationID',
    read: 'GetProjectProjectIDIntegrationsIntegrationID',
    list: 'GetProjectProjectIDIntegrations',
  },
} satisfies Record<string, { idParam: string; create: Operation; update: Operation; read: Operation; list: Operation }>;

/**
 * Replays what the provider does for each resource, call by call, as its client sends them: go-swagger's
 * headers (JSON content type on every call, bodyless DELETEs included), a Bearer token, and bodies the way
 * Go serialises its request models (`omitempty`: false, 0 and "" are left out, so an absent boolean means false).
 */
describe.each(dialects)('the Terraform provider against Gantry (%s)', (dialect) => {
  let p: ProjectFixture;
  let token: string;
  const called = new Set<Operation>();

  async function call(operation: Operation, params: Record<string, number | string>, body?: Json): Promise<unknown> {
    const spec: OperationSpec = PROVIDER_OPERATIONS[operation];
    const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
    const response = await t.request(spec.method, `/api${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': 'Go-http-client/1.1',
      },
      rawBody: body === undefined ? '' : JSON.stringify(body),
    });
    expect(response.status, `${operation} ${spec.method} ${path}: ${response.text}`).toBe(spec.status);
    called.add(operation);
    if (spec.decodes) {
      const typeName = spec.decodes.replace('[]', '');
      const bodies = spec.decodes.endsWith('[]') ? (response.body as unknown[]) : [response.body];
      expect(Array.isArray(bodies), `${operation} answers a list`).toBe(true);
      expect(
        bodies.flatMap((item) => explainFieldMismatches(typeName, item, { requireAll: false })),
        operation,
      ).toEqual([]);
    }
    return response.body;
  }
  const idOf = (body: unknown) => (body as { id: number }).id;

  /**
   * The provider's cycle on a project resource: create it, update it (the body carries its id), read it
   * back matching `expected`, and find it in the list. Returns its id.
   */
  async function createUpdateRead(
    resource: (typeof PROJECT_RESOURCES)[keyof typeof PROJECT_RESOURCES],
    create: Json,
    update: Json,
    expected: Json,
  ): Promise<number> {
    const params = { project_id: p.projectId };
    const id = idOf(await call(resource.create, params, create));
    const one = { ...params, [resource.idParam]: id };
    await call(resource.update, one, { id, ...update });
    expect(await call(resource.read, one)).toMatchObject(expected);
    expect(((await call(resource.list, params)) as Json[]).map(idOf)).toContain(id);
    return id;
  }

  const t = useTestApp(dialect);
  beforeAll(async () => {
    p = await createProjectFixture(t, { 'site.yml': '- hosts: all\n' });
    token = ((await t.request('POST', '/api/user/tokens', { as: t.adminCookie, rawBody: '' })).body as { id: string })
      .id;
    t.secrets.add(token);
  });

  it('manages a project: create with Go zero values left out, read with and without a trailing slash, update switching alert off, delete', async () => {
    const project = (await call(
      'PostProjects',
      {},
      { name: 'Provider project', alert: true, alert_chat: 'ops', max_parallel_tasks: 3 },
    )) as Json;
    expect(project).toMatchObject({ name: 'Provider project', alert: true, alert_chat: 'ops', max_parallel_tasks: 3 });
    const projectId = idOf(project);
    expect(((await call('GetProjects', {})) as Json[]).map(idOf)).toContain(projectId);
    // The provider sends false and 0 by leaving them out: the project's alert goes off.
    await call('PutProjectProjectID', { project_id: projectId }, { name: 'Provider project 2', max_parallel_tasks: 0 });
    expect(await call('GetProjectProjectID', { project_id: projectId })).toMatchObject({
      name: 'Provider project 2',
      alert: false,
      max_parallel_tasks: 0,
    });
    await call('DeleteProjectProjectID', { project_id: projectId });
  });

  it('manages users and project members: create, read, update, set a password, add to a project, change the role, remove, delete', async () => {
    const user = (await call(
      'PostUsers',
      {},
      {
        name: 'Provider User',
        username: 'provider-user',
        email: 'provider@example.com',
        password: 'provider-Pass-1',
        alert: true,
      },
    )) as Json;
    t.secrets.add('provider-Pass-1');
    const userId = idOf(user);
    expect(user).toMatchObject({ username: 'provider-user', admin: false, alert: true });
    expect(((await call('GetUsers', {})) as Json[]).map(idOf)).toContain(userId);
    await call(
      'PutUsersUserID',
      { user_id: userId },
      { name: 'Provider User 2', username: 'provider-user', email: 'provider@example.com' },
    );
    expect(await call('GetUsersUserID', { user_id: userId })).toMatchObject({ name: 'Provider User 2', alert: false });
    await call('PostUsersUserIDPassword', { user_id: userId }, { password: 'provider-Pass-2' });
    t.secrets.add('provider-Pass-2');
    expect(
      (await t.request('POST', '/api/auth/login', { body: { auth: 'provider-user', password: 'provider-Pass-2' } }))
        .status,
    ).toBe(204);

    await call('PostProjectProjectIDUsers', { project_id: p.projectId }, { user_id: userId, role: 'task_runner' });
    expect(
      ((await call('GetProjectProjectIDUsers', { project_id: p.projectId })) as Json[]).find((u) => u.id === userId),
    ).toMatchObject({ role: 'task_runner' });
    await call('PutProjectProjectIDUsersUserID', { project_id: p.projectId, user_id: userId }, { role: 'manager' });
    expect(
      ((await call('GetProjectProjectIDUsers', { project_id: p.projectId })) as Json[]).find((u) => u.id === userId),
    ).toMatchObject({ role: 'manager' });
    await call('DeleteProjectProjectIDUsersUserID', { project_id: p.projectId, user_id: userId });
    await call('DeleteUsersUserID', { user_id: userId });
  });

  it('manages keys, repositories, inventories, variable groups and views the way the provider does', async () => {
    const params = { project_id: p.projectId };
    const key = (await call('PostProjectProjectIDKeys', params, {
      name: 'Provider key',
      type: 'login_password',
      project_id: p.projectId,
      login_password: { login: 'deploy', password: 'provider-Key-Pass-1' },
    })) as Json;
    t.secrets.add('provider-Key-Pass-1');
    const keyId = idOf(key);
    // The provider finds keys by listing them; a key update without a new secret leaves override_secret out.
    expect(((await call('GetProjectProjectIDKeys', params)) as Json[]).find((k) => k.id === keyId)).toMatchObject({
      name: 'Provider key',
      type: 'login_password',
    });
    await call(
      'PutProjectProjectIDKeysKeyID',
      { ...params, key_id: keyId },
      { id: keyId, name: 'Provider key 2', type: 'login_password', project_id: p.projectId },
    );
    expect(((await call('GetProjectProjectIDKeys', params)) as Json[]).find((k) => k.id === keyId)).toMatchObject({
      name: 'Provider key 2',
      empty: false,
    });

    const repository = { project_id: p.projectId, git_url: 'https://example.com/acme/site.git', ssh_key_id: keyId };
    const repositoryId = await createUpdateRead(
      PROJECT_RESOURCES.repository,
      { ...repository, name: 'Provider repo', git_branch: 'main' },
      { ...repository, name: 'Provider repo 2', git_branch: 'release' },
      { name: 'Provider repo 2', git_branch: 'release', ssh_key_id: keyId },
    );

    // A repository on a local path keeps its branch, in the answer the provider reads into its state too.
    const localRepository = { project_id: p.projectId, git_url: '/opt/local/repo', ssh_key_id: keyId };
    const local = (await call('PostProjectProjectIDRepositories', params, {
      ...localRepository,
      name: 'Provider local repo',
      git_branch: 'master',
    })) as Json;
    expect(local).toMatchObject({ git_url: '/opt/local/repo', git_branch: 'master' });
    await call(
      'PutProjectProjectIDRepositoriesRepositoryID',
      { ...params, repository_id: idOf(local) },
      { ...localRepository, id: idOf(local), name: 'Provider local repo', git_branch: 'develop' },
    );
    expect(
      await call('GetProjectProjectIDRepositoriesRepositoryID', { ...params, repository_id: idOf(local) }),
    ).toMatchObject({ git_branch: 'develop' });
    await call('DeleteProjectProjectIDRepositoriesRepositoryID', { ...params, repository_id: idOf(local) });

    const inventory = { name: 'Provider hosts', project_id: p.projectId, ssh_key_id: p.noneKeyId, type: 'static' };
    const inventoryId = await createUpdateRead(
      PROJECT_RESOURCES.inventory,
      { ...inventory, inventory: 'web1.example.com', become_key_id: keyId },
      // Without become_key_id (0 is left out) the inventory no longer has a become key.
      { ...inventory, inventory: 'web2.example.com' },
      { inventory: 'web2.example.com', become_key_id: null },
    );

    const group = (await call('PostProjectProjectIDEnvironment', params, {
      name: 'Provider vars',
      project_id: p.projectId,
      json: '{"a":"1"}',
      env: '{}',
      secrets: [{ name: 'token', type: 'var', secret: 'provider-Secret-1', operation: 'create' }],
    })) as Json;
    t.secrets.add('provider-Secret-1');
    const groupId = idOf(group);
    const stored = (await call('GetProjectProjectIDEnvironmentEnvironmentID', {
      ...params,
      environment_id: groupId,
    })) as { secrets: Json[] };
    const secretId = idOf(stored.secrets[0]);
    await call(
      'PutProjectProjectIDEnvironmentEnvironmentID',
      { ...params, environment_id: groupId },
      {
        id: groupId,
        name: 'Provider vars',
        project_id: p.projectId,
        json: '{"a":"2"}',
        env: '{}',
        secrets: [{ id: secretId, name: 'token', type: 'var', secret: 'provider-Secret-2', operation: 'update' }],
      },
    );
    t.secrets.add('provider-Secret-2');
    expect(
      await call('GetProjectProjectIDEnvironmentEnvironmentID', { ...params, environment_id: groupId }),
    ).toMatchObject({ json: '{"a":"2"}', secrets: [{ id: secretId, name: 'token', type: 'var' }] });

    // Renaming a secret writes its name; removing the first of two renames it to the second and deletes that one.
    const groupBody = { name: 'Provider vars', project_id: p.projectId, json: '{"a":"2"}', env: '{}' };
    const putSecrets = (secrets: Json[]) =>
      call(
        'PutProjectProjectIDEnvironmentEnvironmentID',
        { ...params, environment_id: groupId },
        {
          id: groupId,
          ...groupBody,
          secrets,
        },
      );
    const readSecrets = async () =>
      (
        (await call('GetProjectProjectIDEnvironmentEnvironmentID', { ...params, environment_id: groupId })) as {
          secrets: Json[];
        }
      ).secrets;
    await putSecrets([
      { id: secretId, name: 'token', type: 'var', secret: 'provider-Secret-2', operation: 'update' },
      { name: 'token2', type: 'var', secret: 'provider-Secret-3', operation: 'create' },
    ]);
    t.secrets.add('provider-Secret-3');
    const otherId = idOf((await readSecrets()).find((secret) => secret.name === 'token2'));
    await putSecrets([{ id: secretId, name: 'token1', type: 'var', secret: 'provider-Secret-4', operation: 'update' }]);
    t.secrets.add('provider-Secret-4');
    expect(await readSecrets()).toMatchObject([
      { id: secretId, name: 'token1', type: 'var' },
      { id: otherId, name: 'token2', type: 'var' },
    ]);
    await putSecrets([
      { id: secretId, name: 'token2', type: 'var', secret: 'provider-Secret-3', operation: 'update' },
      { id: otherId, name: 'token2', type: 'var', operation: 'delete' },
    ]);
    expect(await readSecrets()).toMatchObject([{ id: secretId, name: 'token2' }]);
    expect(await t.runtime.services.environments.listSecretValues(p.projectId, groupId)).toEqual([
      { type: 'var', name: 'token2', value: 'provider-Secret-3' },
    ]);

    const viewId = await createUpdateRead(
      PROJECT_RESOURCES.view,
      { title: 'Provider view', project_id: p.projectId, position: 1 },
      { title: 'Provider view 2', project_id: p.projectId },
      { title: 'Provider view 2', position: 0 },
    );

    // A view created without a position (Go leaves 0 out) is at 0 in the answer the provider keeps, not after the others.
    const unplaced = (await call('PostProjectProjectIDViews', params, {
      title: 'Provider view at 0',
      project_id: p.projectId,
    })) as Json;
    expect(unplaced).toMatchObject({ position: 0 });
    await call('DeleteProjectProjectIDViewsViewID', { ...params, view_id: idOf(unplaced) });

    await call('DeleteProjectProjectIDViewsViewID', { ...params, view_id: viewId });
    await call('DeleteProjectProjectIDEnvironmentEnvironmentID', { ...params, environment_id: groupId });
    await call('DeleteProjectProjectIDInventoryInventoryID', { ...params, inventory_id: inventoryId });
    await call('DeleteProjectProjectIDRepositoriesRepositoryID', { ...params, repository_id: repositoryId });
    await call('DeleteProjectProjectIDKeysKeyID', { ...params, key_id: keyId });
  });

  it('manages templates, schedules and integrations with their aliases the way the provider does', async () => {
    const params = { project_id: p.projectId };
    const vaultKey = idOf(
      await call('PostProjectProjectIDKeys', params, {
        name: 'Provider vault',
        type: 'login_password',
        project_id: p.projectId,
        login_password: { password: 'provider-Vault-1' },
      }),
    );
    t.secrets.add('provider-Vault-1');
    const inventoryId = idOf(
      await call('PostProjectProjectIDInventory', params, {
        name: 'Template hosts',
        project_id: p.projectId,
        inventory: 'localhost',
        ssh_key_id: p.noneKeyId,
        type: 'static',
      }),
    );
    const templateBody = {
      project_id: p.projectId,
      environment_id: p.emptyEnvironmentId,
      environment_ids: [p.emptyEnvironmentId],
      inventory_id: inventoryId,
      repository_id: p.repositoryId,
      app: 'ansible',
      name: 'Provider template',
      playbook: 'site.yml',
      allow_override_args_in_task: true,
      arguments: '[]',
      description: 'From Terraform',
      survey_vars: [
        { name: 'region', title: 'Region', required: true, type: 'enum', values: [{ name: 'Europe', value: 'eu' }] },
        { name: 'note', title: 'Note', values: null },
      ],
      vaults: [{ type: 'password', vault_key_id: vaultKey }],
      task_params: { params: {} },
    };
    const template = (await call('PostProjectProjectIDTemplates', params, templateBody)) as Json;
    const templateId = idOf(template);
    const read = (await call('GetProjectProjectIDTemplatesTemplateID', { ...params, template_id: templateId })) as Json;
    // The provider reads environment_ids first (Semaphore 2.16+), environment_id otherwise.
    expect(read).toMatchObject({
      name: 'Provider template',
      environment_id: p.emptyEnvironmentId,
      environment_ids: [p.emptyEnvironmentId],
      inventory_id: inventoryId,
      allow_override_args_in_task: true,
      vaults: [{ type: 'password', vault_key_id: vaultKey }],
    });
    const vaultId = idOf((read.vaults as Json[])[0]);
    const updateTemplate = (fields: Json) =>
      call(
        'PutProjectProjectIDTemplatesTemplateID',
        { ...params, template_id: templateId },
        { ...templateBody, id: templateId, name: 'Provider template 2', ...fields },
      );
    await updateTemplate({
      allow_override_args_in_task: undefined,
      vaults: [
        { id: vaultId, type: 'password', vault_key_id: vaultKey },
        { name: 'extra', type: 'password', vault_key_id: vaultKey },
      ],
    });
    // The provider keeps vault ids in its state: an update keeps the id of each vault sent with one.
    const updated = (await call('GetProjectProjectIDTemplatesTemplateID', {
      ...params,
      template_id: templateId,
    })) as Json;
    expect(updated).toMatchObject({
      name: 'Provider template 2',
      allow_override_args_in_task: false,
      vaults: [
        { id: vaultId, name: '', vault_key_id: vaultKey },
        { id: expect.any(Number), name: 'extra', vault_key_id: vaultKey },
      ],
    });
    const extraId = idOf((updated.vaults as Json[])[1]);
    await updateTemplate({
      vaults: [
        { id: vaultId, type: 'password', vault_key_id: vaultKey },
        { id: extraId, name: 'extra', type: 'password', vault_key_id: vaultKey },
      ],
    });
    expect(
      (
        (await call('GetProjectProjectIDTemplatesTemplateID', { ...params, template_id: templateId })) as {
          vaults: Json[];
        }
      ).vaults.map(idOf),
    ).toEqual([vaultId, extraId]);
    expect(((await call('GetProjectProjectIDTemplates', params)) as Json[]).map(idOf)).toContain(templateId);

    // A disabled schedule is sent without `active` (false is left out): it must not run.
    const schedule = (await call('PostProjectProjectIDSchedules', params, {
      project_id: p.projectId,
      template_id: templateId,
      name: 'Provider nightly',
      cron_format: '0 3 * * *',
    })) as Json;
    const scheduleId = idOf(schedule);
    expect(await call('GetProjectProjectIDSchedulesScheduleID', { ...params, schedule_id: scheduleId })).toMatchObject({
      name: 'Provider nightly',
      active: false,
    });
    await call(
      'PutProjectProjectIDSchedulesScheduleID',
      { ...params, schedule_id: scheduleId },
      {
        id: scheduleId,
        project_id: p.projectId,
        template_id: templateId,
        name: 'Provider nightly',
        cron_format: '0 4 * * *',
        active: true,
      },
    );
    expect(await call('GetProjectProjectIDSchedulesScheduleID', { ...params, schedule_id: scheduleId })).toMatchObject({
      cron_format: '0 4 * * *',
      active: true,
    });

    const integrationId = await createUpdateRead(
      PROJECT_RESOURCES.integration,
      {
        project_id: p.projectId,
        template_id: templateId,
        name: 'Provider hook',
        auth_method: 'token',
        auth_header: 'X-Token',
        auth_secret_id: vaultKey,
        searchable: true,
        task_params: { message: 'hook', params: {} },
      },
      { project_id: p.projectId, template_id: templateId, name: 'Provider hook 2', task_params: { params: {} } },
      { name: 'Provider hook 2', auth_method: '', searchable: false, auth_secret_id: null },
    );

    // Left at the provider's defaults, an integration is written with auth_method "none", task_params with
    // the lists it was not given as null, or without task_params: it reads back what it wrote, and null
    // task_params when none were set (an empty object would read as parameters someone set).
    const defaults = { project_id: p.projectId, template_id: templateId, name: 'Provider defaults' };
    const plain = (await call('PostProjectProjectIDIntegrations', params, {
      ...defaults,
      auth_method: 'none',
    })) as Json;
    expect(plain).toMatchObject({ auth_method: 'none', task_params: null });
    await call(
      'PutProjectProjectIDIntegrationsIntegrationID',
      { ...params, integration_id: idOf(plain) },
      {
        ...defaults,
        id: idOf(plain),
        auth_method: 'none',
        task_params: { environment: '{}', params: { limit: null, skip_tags: ['slow'], tags: ['deploy'] } },
      },
    );
    expect(
      await call('GetProjectProjectIDIntegrationsIntegrationID', { ...params, integration_id: idOf(plain) }),
    ).toMatchObject({
      auth_method: 'none',
      task_params: { environment: '{}', params: { skip_tags: ['slow'], tags: ['deploy'] } },
    });
    await call('DeleteProjectProjectIDIntegrationsIntegrationID', { ...params, integration_id: idOf(plain) });
    const { task_params: _unset, ...withoutParams } = templateBody;
    const bare = (await call('PostProjectProjectIDTemplates', params, {
      ...withoutParams,
      name: 'Provider bare',
    })) as Json;
    expect(bare.task_params).toBeNull();
    expect(
      (await call('GetProjectProjectIDTemplatesTemplateID', { ...params, template_id: idOf(bare) })) as Json,
    ).toMatchObject({
      task_params: null,
    });
    await call('DeleteProjectProjectIDTemplatesTemplateID', { ...params, template_id: idOf(bare) });

    const alias = (await call('PostProjectProjectIDIntegrationsIntegrationIDAliases', {
      ...params,
      integration_id: integrationId,
    })) as Json;
    expect(
      (
        (await call('GetProjectProjectIDIntegrationsIntegrationIDAliases', {
          ...params,
          integration_id: integrationId,
        })) as Json[]
      ).map(idOf),
    ).toEqual([idOf(alias)]);
    await call('DeleteProjectProjectIDIntegrationsIntegrationIDAliasesAliasID', {
      ...params,
      integration_id: integrationId,
      alias_id: idOf(alias),
    });
    const projectAlias = (await call('PostProjectProjectIDIntegrationsAliases', params)) as Json;
    expect(((await call('GetProjectProjectIDIntegrationsAliases', params)) as Json[]).map(idOf)).toEqual([
      idOf(projectAlias),
    ]);
    await call('DeleteProjectProjectIDIntegrationsAliasesAliasID', { ...params, alias_id: idOf(projectAlias) });

    await call('DeleteProjectProjectIDIntegrationsIntegrationID', { ...params, integration_id: integrationId });
    await call('DeleteProjectProjectIDSchedulesScheduleID', { ...params, schedule_id: scheduleId });
    await call('DeleteProjectProjectIDTemplatesTemplateID', { ...params, template_id: templateId });
  });

  it('has replayed every operation the provider uses', () => {
    expect(Object.keys(PROVIDER_OPERATIONS).filter((operation) => !called.has(operation as Operation))).toEqual([]);
  });
});
