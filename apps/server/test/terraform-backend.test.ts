import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTestEnvironment } from '../src/config.ts';
import { freePort, hasBinary } from './machine.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { createTestApp, type TestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();
const execFileAsync = promisify(execFile);

const BACKEND_LOGIN = 'tf-state';
const BACKEND_PASSWORD = 'tf-State-Pa55';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** Lock info as terraform's http backend sends it with LOCK. */
function lockInfo(id: string, operation = 'OperationTypeApply') {
  return JSON.stringify({
    ID: id,
    Operation: operation,
    Info: '',
    Who: `someone@${id}`,
    Version: '1.11.4',
    Created: '2026-06-01T10:00:00Z',
    Path: '',
  });
}

/** A state document shaped like terraform's (version 4). */
function stateDocument(serial: number) {
  return JSON.stringify({
    version: 4,
    terraform_version: '1.11.4',
    serial,
    lineage: 'b6f0c1d2-lineage',
    outputs: { serial: { value: serial, type: 'number' } },
    resources: [],
    check_results: null,
  });
}

describe.each(dialects)('terraform workspaces and the HTTP state backend on %s', (dialect) => {
  let p: ProjectFixture;
  let templateId = 0;
  let defaultWorkspaceId = 0;
  let keyId = 0;
  let guestCookie = '';

  const get = (url: string, as = t.adminCookie) => t.request('GET', url, { as });
  const post = (url: string, body?: unknown, as = t.adminCookie) =>
    t.request('POST', url, { as, ...(body !== undefined ? { body } : {}) });
  const workspaceUrl = (inventoryId: number, action: string) =>
    `${p.base}/templates/${templateId}/inventory/${inventoryId}/${action}`;

  /** One call to the backend the way terraform makes it. */
  function backend(method: string, alias: string, options: { body?: string; id?: string; auth?: string | null } = {}) {
    const headers: Record<string, string> = {};
    if (options.auth !== null) headers.authorization = options.auth ?? basic(BACKEND_LOGIN, BACKEND_PASSWORD);
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const query = options.id !== undefined ? `?ID=${encodeURIComponent(options.id)}` : '';
    return t.request(method, `/api/terraform/${alias}${query}`, {
      headers,
      ...(options.body !== undefined ? { rawBody: options.body } : {}),
    });
  }

  async function createWorkspace(name: string, forTemplate: number | null = templateId): Promise<number> {
    const response = await post(`${p.base}/inventory`, {
      name,
      type: 'terraform-workspace',
      inventory: name,
      ssh_key_id: p.noneKeyId,
      template_id: forTemplate,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return (response.body as { id: number }).id;
  }

  async function createAlias(inventoryId: number): Promise<string> {
    const response = await post(`${p.base}/inventory/${inventoryId}/terraform/aliases`, { auth_key_id: keyId });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return (response.body as { alias: string }).alias;
  }

  const t = useTestApp(dialect);
  beforeAll(async () => {
    t.secrets.add(BACKEND_PASSWORD);
    p = await createProjectFixture(t, { 'tf/main.tf': 'output "hello" { value = "world" }\n' });
    templateId = await p.createTemplate({ name: 'Infra', app: 'terraform', playbook: 'tf' });
    const template = (await get(`${p.base}/templates/${templateId}`)).body as { inventory_id: number };
    defaultWorkspaceId = template.inventory_id;
    keyId = await p.createLoginPasswordKey('state backend', BACKEND_LOGIN, BACKEND_PASSWORD);
    const guest = await t.createUser(`guest${Math.random().toString(36).slice(2, 7)}`);
    expect((await post(`${p.base}/users`, { user_id: guest.id, role: 'task_runner' })).status).toBe(204);
    guestCookie = guest.cookie;
  });

  it('gives a new terraform template its default workspace', async () => {
    expect(defaultWorkspaceId).toBeGreaterThan(0);
    const workspaces = (await get(`${p.base}/inventory?app=terraform&template_id=${templateId}`)).body as Record<
      string,
      unknown
    >[];
    expect(workspaces).toEqual([
      expect.objectContaining({
        id: defaultWorkspaceId,
        name: 'Infra - default',
        type: 'terraform-workspace',
        inventory: 'default',
        template_id: templateId,
        holder_id: templateId,
      }),
    ]);
  });

  it('attaches, detaches and re-defaults workspaces, and never lets the default go', async () => {
    const staging = await createWorkspace('staging');
    expect((await post(workspaceUrl(defaultWorkspaceId, 'detach'))).body).toMatchObject({
      error: 'The default workspace cannot be detached',
    });
    expect((await post(workspaceUrl(defaultWorkspaceId, 'set_default'))).body).toMatchObject({
      error: 'The workspace is already the default',
    });
    const deleteDefault = await t.request('DELETE', `${p.base}/inventory/${defaultWorkspaceId}`, { as: t.adminCookie });
    expect(deleteDefault.status).toBe(400);
    await expect(post(workspaceUrl(staging, 'set_default'), undefined, guestCookie)).resolves.toMatchObject({
      status: 403,
    });

    expect((await post(workspaceUrl(staging, 'set_default'))).status).toBe(204);
    expect(((await get(`${p.base}/templates/${templateId}`)).body as { inventory_id: number }).inventory_id).toBe(
      staging,
    );
    expect((await post(workspaceUrl(defaultWorkspaceId, 'detach'))).status).toBe(204);
    expect(
      ((await get(`${p.base}/inventory/${defaultWorkspaceId}`)).body as { template_id: number | null }).template_id,
    ).toBeNull();
    expect((await get(`${p.base}/inventory?app=terraform&template_id=${templateId}`)).body).toEqual([
      expect.objectContaining({ id: staging }),
    ]);
    expect((await post(workspaceUrl(defaultWorkspaceId, 'attach'))).status).toBe(204);
    expect((await post(workspaceUrl(defaultWorkspaceId, 'set_default'))).status).toBe(204);
    expect((await post(workspaceUrl(staging, 'detach'))).status).toBe(204);
    expect((await t.request('DELETE', `${p.base}/inventory/${staging}`, { as: t.adminCookie })).status).toBe(204);

    const other = await p.createTemplate({ name: 'Other', app: 'terraform', playbook: 'tf' });
    const othersDefault = ((await get(`${p.base}/templates/${other}`)).body as { inventory_id: number }).inventory_id;
    expect((await post(workspaceUrl(othersDefault, 'attach'))).body).toMatchObject({
      error: 'The workspace belongs to another template',
    });
    const ansibleInventory = await post(`${p.base}/inventory`, {
      name: 'hosts',
      type: 'static',
      inventory: 'localhost',
      ssh_key_id: p.noneKeyId,
    });
    expect((await post(workspaceUrl((ansibleInventory.body as { id: number }).id, 'attach'))).body).toMatchObject({
      error: 'The inventory is not a terraform-workspace',
    });
    expect((await post(`${p.base}/templates/${templateId}/inventory/999999/attach`)).status).toBe(404);
  });

  it('manages aliases with login_password keys only, and only for managers', async () => {
    const url = `${p.base}/inventory/${defaultWorkspaceId}/terraform/aliases`;
    expect(await get(url)).toMatchObject({ status: 200, body: [] });
    const created = await post(url, { auth_key_id: keyId });
    expect(created.status).toBe(201);
    const alias = created.body as { id: number; alias: string; url: string; auth_key_id: number; inventory_id: number };
    expect(alias).toMatchObject({ auth_key_id: keyId, inventory_id: defaultWorkspaceId });
    expect(alias.alias).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(alias.url).toBe(`/api/terraform/${alias.alias}`);
    expect((await get(url)).body).toEqual([alias]);
    expect((await get(url, guestCookie)).status).toBe(200);
    expect((await post(url, { auth_key_id: keyId }, guestCookie)).status).toBe(403);
    expect((await post(url, { auth_key_id: p.noneKeyId })).body).toMatchObject({
      error: 'The backend credentials must be a login with password key',
    });
    expect((await post(url, { auth_key_id: 'x' })).status).toBe(400);
    const ansibleInventory = await post(`${p.base}/inventory`, {
      name: 'hosts2',
      type: 'static',
      inventory: 'localhost',
      ssh_key_id: p.noneKeyId,
    });
    expect(
      (await get(`${p.base}/inventory/${(ansibleInventory.body as { id: number }).id}/terraform/aliases`)).status,
    ).toBe(400);

    // The key is now in use by the workspace's alias, so it cannot be deleted from under it.
    expect((await t.request('DELETE', `${p.base}/keys/${keyId}`, { as: t.adminCookie })).status).toBe(400);
    expect(
      (await t.request('PUT', `${url}/${alias.id}`, { as: t.adminCookie, body: { auth_key_id: null } })).status,
    ).toBe(204);
    expect((await backend('GET', alias.alias)).status).toBe(401);
    expect((await t.request('DELETE', `${url}/${alias.id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await get(`${url}/${alias.id}`)).status).toBe(404);
    expect((await backend('GET', alias.alias)).status).toBe(404);
  });

  it("speaks terraform's http backend: credentials, state versions and a real lock shared by every alias", async () => {
    const workspace = await createWorkspace(`ws-${dialect}`);
    const alias = await createAlias(workspace);
    const second = await createAlias(workspace);

    expect((await backend('GET', 'no-such-alias')).status).toBe(404);
    const anonymous = await backend('GET', alias, { auth: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="terraform-state"');
    expect((await backend('GET', alias, { auth: basic(BACKEND_LOGIN, 'wrong') })).status).toBe(401);
    expect((await backend('GET', alias, { auth: basic('someone', BACKEND_PASSWORD) })).status).toBe(401);
    expect((await backend('GET', alias, { auth: 'Bearer abc' })).status).toBe(401);
    expect((await backend('GET', alias)).status).toBe(404);

    expect((await backend('LOCK', alias, { body: lockInfo('lock-1') })).status).toBe(200);
    const held = await backend('LOCK', second, { body: lockInfo('lock-2') });
    expect(held.status).toBe(423);
    expect(JSON.parse(held.text)).toMatchObject({
      ID: 'lock-1',
      Who: 'someone@lock-1',
      Operation: 'OperationTypeApply',
    });
    expect((await backend('POST', alias, { body: stateDocument(1) })).status).toBe(423);
    expect((await backend('POST', second, { body: stateDocument(1), id: 'lock-2' })).status).toBe(423);
    expect((await backend('POST', alias, { body: stateDocument(1), id: 'lock-1' })).status).toBe(200);
    const wrongUnlock = await backend('UNLOCK', second, { body: lockInfo('lock-2') });
    expect(wrongUnlock.status).toBe(409);
    expect(JSON.parse(wrongUnlock.text)).toMatchObject({ ID: 'lock-1' });
    expect((await backend('UNLOCK', alias, { body: lockInfo('lock-1') })).status).toBe(200);

    expect((await backend('LOCK', second, { body: lockInfo('lock-2') })).status).toBe(200);
    // terraform force-unlock sends UNLOCK without a body.
    expect((await backend('UNLOCK', alias)).status).toBe(200);
    expect((await backend('LOCK', alias, { body: lockInfo('lock-3') })).status).toBe(200);
    expect((await backend('POST', alias, { body: stateDocument(2), id: 'lock-3' })).status).toBe(200);
    expect((await backend('UNLOCK', alias, { body: lockInfo('lock-3') })).status).toBe(200);

    const latest = await backend('GET', second);
    expect(latest.status).toBe(200);
    expect(latest.text).toBe(stateDocument(2));
    expect(latest.headers['content-type']).toContain('application/json');

    expect((await backend('POST', alias, { body: 'not json' })).status).toBe(400);
    expect((await backend('LOCK', alias, { body: '{"Who":"x"}' })).status).toBe(400);
    expect((await backend('PUT', alias, { body: stateDocument(3) })).status).toBe(404);

    const states = (await get(`${p.base}/inventory/${workspace}/terraform/states`)).body as Record<string, unknown>[];
    expect(states).toHaveLength(2);
    expect(states[0]).toMatchObject({ inventory_id: workspace, task_id: null, status: null });
    expect(states[0]).not.toHaveProperty('state');
    expect(Number(states[0]?.id)).toBeGreaterThan(Number(states[1]?.id));

    // The project API shows who holds the lock and lets a manager release one left behind.
    const lockUrl = `${p.base}/inventory/${workspace}/terraform/lock`;
    expect((await get(lockUrl)).body).toBeNull();
    expect((await backend('LOCK', alias, { body: lockInfo('stuck') })).status).toBe(200);
    expect((await get(lockUrl, guestCookie)).body).toMatchObject({
      id: 'stuck',
      who: 'someone@stuck',
      operation: 'OperationTypeApply',
    });
    expect((await t.request('DELETE', lockUrl, { as: guestCookie })).status).toBe(403);
    expect((await t.request('DELETE', lockUrl, { as: t.adminCookie })).status).toBe(204);
    expect((await get(lockUrl)).body).toBeNull();
    expect((await backend('LOCK', second, { body: lockInfo('fresh') })).status).toBe(200);
    expect((await backend('UNLOCK', second, { body: lockInfo('fresh') })).status).toBe(200);

    // Deleting the state (terraform's DELETE) removes the workspace's history.
    expect((await backend('DELETE', alias)).status).toBe(200);
    expect((await backend('GET', alias)).status).toBe(404);
  });

  it('answers names no alias can have with 404 and lock IDs the store cannot keep with 400, never a 500', async () => {
    const workspace = await createWorkspace(`odd-${dialect}`);
    const alias = await createAlias(workspace);
    for (const name of ['%00', 'abc%00def', `${alias}%20`, `${alias}.`, 'a'.repeat(65)])
      for (const method of ['GET', 'POST', 'LOCK', 'UNLOCK', 'DELETE']) {
        const response = await t.request(method, `/api/terraform/${name}`, {
          headers: { authorization: basic(BACKEND_LOGIN, BACKEND_PASSWORD) },
        });
        expect(response.status, `${method} ${name}`).toBe(404);
        expect(response.body, `${method} ${name}`).toMatchObject({ error: 'Alias not found' });
      }
    // JSON escapes: the body itself holds no NUL, only the ID it decodes to.
    for (const id of [String.raw`\u0000x`, String.raw`\ud800`, String.raw`a\udc00b`]) {
      const body = `{"ID":"${id}","Who":"x"}`;
      for (const method of ['LOCK', 'UNLOCK']) {
        const response = await backend(method, alias, { body });
        expect(response.status, `${method} ${id}`).toBe(400);
        expect((response.body as { error: string }).error, `${method} ${id}`).toMatch(/^The lock ID must/);
      }
    }
    expect((await backend('LOCK', alias, { body: lockInfo('ok') })).status).toBe(200);
    expect((await backend('UNLOCK', alias, { body: lockInfo('ok') })).status).toBe(200);
  });

  it("refuses an address that keeps guessing an alias's password, as it refuses failed sign-ins", async () => {
    const workspace = await createWorkspace(`guessed-${dialect}`);
    const alias = await createAlias(workspace);
    const guess = (password: string) => backend('GET', alias, { auth: basic(BACKEND_LOGIN, password) });
    // Right credentials do not count: the store's own calls never lock their address out.
    for (let i = 0; i < 12; i++) expect((await guess(BACKEND_PASSWORD)).status).toBe(404);
    for (let i = 0; i < 10; i++) expect((await guess(`guess-${i}`)).status).toBe(401);
    const refused = await guess('guess-10');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guess(BACKEND_PASSWORD)).status).toBe(429);
    // Another alias of the workspace is counted on its own.
    expect((await backend('GET', await createAlias(workspace))).status).toBe(404);
  });

  it("opens nothing through an alias whose key has no secret yet (a restored project's keys come back empty)", async () => {
    const restored = await t.request('POST', '/api/projects/restore', {
      as: t.adminCookie,
      body: {
        meta: { name: `restored-${dialect}` },
        keys: [
          { name: 'None', type: 'none' },
          { name: 'state backend', type: 'login_password' },
        ],
        repositories: [{ name: 'infra', git_url: '/srv/infra', ssh_key: 'None' }],
        templates: [{ name: 'Infra', app: 'terraform', playbook: 'tf', repository: 'infra' }],
      },
    });
    expect(restored.status, restored.text).toBe(200);
    const base = `/api/project/${(restored.body as { id: number }).id}`;
    const [template] = (await get(`${base}/templates`)).body as { inventory_id: number }[];
    const emptyKey = ((await get(`${base}/keys`)).body as { id: number; name: string; empty: boolean }[]).find(
      (k) => k.name === 'state backend',
    );
    expect(emptyKey?.empty).toBe(true);
    const created = await post(`${base}/inventory/${template?.inventory_id}/terraform/aliases`, {
      auth_key_id: emptyKey?.id,
    });
    expect(created.status, created.text).toBe(201);
    const alias = (created.body as { alias: string }).alias;
    expect((await backend('GET', alias, { auth: basic('', '') })).status).toBe(401);
    expect((await backend('LOCK', alias, { auth: basic('', ''), body: lockInfo('blank') })).status).toBe(401);
  });

  it('lists the state history newest first, 20 per page, and guards the state text', async () => {
    const workspace = await createWorkspace(`history-${dialect}`);
    const alias = await createAlias(workspace);
    for (let serial = 1; serial <= 25; serial += 1)
      expect((await backend('POST', alias, { body: stateDocument(serial) })).status).toBe(200);
    const url = `${p.base}/inventory/${workspace}/terraform/states`;
    const first = (await get(`${url}?limit=20`)).body as { id: number }[];
    const rest = (await get(`${url}?limit=20&offset=20`)).body as { id: number }[];
    expect(first).toHaveLength(20);
    expect(rest).toHaveLength(5);
    const ids = [...first, ...rest].map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await get(url)).body).toHaveLength(25);
    expect((await get(`${url}?limit=0`)).status).toBe(400);

    const newest = await get(`${url}/${ids[0]}`);
    expect(newest.body).toMatchObject({ id: ids[0], state: stateDocument(25) });
    expect((await get(`${url}/latest`)).body).toMatchObject({ id: ids[0], state: stateDocument(25) });
    expect((await get(`${url}/${ids[24]}`)).body).toMatchObject({ state: stateDocument(1) });
    expect((await get(url, guestCookie)).status).toBe(200);
    expect((await get(`${url}/${ids[0]}`, guestCookie)).status).toBe(403);
    expect((await t.request('DELETE', `${url}/${ids[0]}`, { as: guestCookie })).status).toBe(403);

    expect((await t.request('DELETE', `${url}/${ids[0]}`, { as: t.adminCookie })).status).toBe(204);
    expect(await get(`${url}/${ids[0]}`)).toMatchObject({ status: 404, body: { error: 'No state available.' } });
    expect((await backend('GET', alias)).text).toBe(stateDocument(24));

    const empty = await createWorkspace(`empty-${dialect}`);
    expect(await get(`${p.base}/inventory/${empty}/terraform/states/latest`)).toMatchObject({
      status: 404,
      body: { error: 'No state available.' },
    });
    // A state of another workspace is not reachable through this one.
    expect((await get(`${p.base}/inventory/${empty}/terraform/states/${ids[1]}`)).status).toBe(404);
  });

  it('removes aliases, states and locks with their project', async () => {
    const workspace = await createWorkspace(`gone-${dialect}`);
    const alias = await createAlias(workspace);
    expect((await backend('POST', alias, { body: stateDocument(1) })).status).toBe(200);
    expect((await backend('LOCK', alias, { body: lockInfo('held') })).status).toBe(200);
    expect((await t.request('DELETE', p.base, { as: t.adminCookie })).status).toBe(204);
    expect((await backend('GET', alias)).status).toBe(404);
  });
});

const terraformBinary = ['terraform', 'tofu'].find(hasBinary);
if (!terraformBinary)
  console.warn('Skipping the real terraform backend tests: neither terraform nor tofu is installed');

const MAIN_TF = [
  'terraform {',
  '  backend "http" {}',
  '}',
  'variable "pause" { default = "0" }',
  'variable "name" { default = "first" }',
  'resource "terraform_data" "thing" {',
  '  input = var.name',
  // Prints the backend password terraform was given: a task's log must show it masked.
  '  provisioner "local-exec" { command = "sleep ${var.pause}; echo backend-password=$TF_HTTP_PASSWORD" }',
  '}',
  'output "name" { value = terraform_data.thing.output }',
  '',
].join('\n');

describe.skipIf(!terraformBinary)(`${terraformBinary ?? 'terraform'} against the built-in backend`, () => {
  const binary = terraformBinary ?? 'terraform';
  let t: TestApp;
  let p: ProjectFixture;
  let baseUrl = '';
  let keyId = 0;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { web_host: baseUrl });
    await t.app.listen({ port, host: '127.0.0.1' });
    t.secrets.add(BACKEND_PASSWORD);
    p = await createProjectFixture(t, { 'tf/main.tf': MAIN_TF });
    keyId = await p.createLoginPasswordKey('state backend', BACKEND_LOGIN, BACKEND_PASSWORD);
  });
  afterAll(() => t.close());

  async function createWorkspaceWithAlias(name: string, templateId: number | null = null) {
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: { name, type: 'terraform-workspace', inventory: name, ssh_key_id: p.noneKeyId, template_id: templateId },
    });
    const inventoryId = (inventory.body as { id: number }).id;
    const alias = await t.request('POST', `${p.base}/inventory/${inventoryId}/terraform/aliases`, {
      as: t.adminCookie,
      body: { auth_key_id: keyId },
    });
    return { inventoryId, alias: alias.body as { alias: string; url: string } };
  }

  const listStates = async (inventoryId: number) =>
    (await t.request('GET', `${p.base}/inventory/${inventoryId}/terraform/states`, { as: t.adminCookie })).body as {
      id: number;
      task_id: number | null;
      status: string | null;
    }[];
  const latestState = async (inventoryId: number) =>
    JSON.parse(
      (
        (await t.request('GET', `${p.base}/inventory/${inventoryId}/terraform/states/latest`, { as: t.adminCookie }))
          .body as { state: string }
      ).state,
    ) as {
      outputs: { name?: { value: string } };
    };
  const auth = { authorization: basic(BACKEND_LOGIN, BACKEND_PASSWORD), 'content-type': 'application/json' };
  /** Asks who holds the lock without taking or releasing it: UNLOCK under an ID nobody holds. */
  const probeLock = (alias: string) =>
    t.request('UNLOCK', `/api/terraform/${alias}`, { headers: auth, rawBody: lockInfo('probe') });

  it('stores states, holds the lock during apply, and refuses a second apply meanwhile', async () => {
    const { inventoryId, alias } = await createWorkspaceWithAlias('cli');
    expect(alias.url).toBe(`${baseUrl}/api/terraform/${alias.alias}`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-tf-'));
    writeFileSync(path.join(dir, 'main.tf'), MAIN_TF);
    const env = {
      PATH: readTestEnvironment().path,
      HOME: dir,
      CHECKPOINT_DISABLE: '1',
      TF_IN_AUTOMATION: '1',
      TF_INPUT: '0',
      TF_HTTP_ADDRESS: alias.url,
      TF_HTTP_LOCK_ADDRESS: alias.url,
      TF_HTTP_UNLOCK_ADDRESS: alias.url,
      TF_HTTP_LOCK_METHOD: 'LOCK',
      TF_HTTP_UNLOCK_METHOD: 'UNLOCK',
      TF_HTTP_USERNAME: BACKEND_LOGIN,
      TF_HTTP_PASSWORD: BACKEND_PASSWORD,
    };
    const tf = (args: string[]) => execFileAsync(binary, args, { cwd: dir, env, timeout: 120_000 });
    await tf(['init', '-input=false']);

    const first = spawn(binary, ['apply', '-auto-approve', '-input=false', '-var', 'pause=5'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstOutput = '';
    first.stdout.on('data', (chunk: Buffer) => (firstOutput += chunk.toString()));
    first.stderr.on('data', (chunk: Buffer) => (firstOutput += chunk.toString()));
    const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));

    const deadline = Date.now() + 60_000;
    let holder: { ID?: string; Operation?: string } = {};
    for (;;) {
      const probe = await probeLock(alias.alias);
      if (probe.status === 409) {
        holder = JSON.parse(probe.text) as typeof holder;
        break;
      }
      if (Date.now() > deadline) throw new Error(`terraform never took the lock: ${firstOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(holder.Operation).toBe('OperationTypeApply');

    const second = await tf(['apply', '-auto-approve', '-input=false', '-lock-timeout=0s', '-var', 'name=second']).then(
      () => ({ ok: true, stderr: '' }),
      (error: { stderr?: string }) => ({ ok: false, stderr: error.stderr ?? '' }),
    );
    expect(second.ok).toBe(false);
    expect(second.stderr).toContain('Error acquiring the state lock');
    expect(second.stderr).toContain(String(holder.ID));

    expect(await firstDone, firstOutput).toBe(0);
    expect((await probeLock(alias.alias)).status).toBe(200);
    expect((await latestState(inventoryId)).outputs.name?.value).toBe('first');
    const afterFirst = (await listStates(inventoryId)).length;
    expect(afterFirst).toBeGreaterThanOrEqual(1);

    await tf(['apply', '-auto-approve', '-input=false', '-var', 'name=second']);
    expect((await latestState(inventoryId)).outputs.name?.value).toBe('second');
    expect((await listStates(inventoryId)).length).toBeGreaterThan(afterFirst);
  });

  it("gives a task its workspace's backend, names the task on the states it writes, and fails while someone holds the lock", async () => {
    const templateId = await p.createTemplate({ app: binary, playbook: 'tf' });
    const workspaceId = (
      (await t.request('GET', `${p.base}/templates/${templateId}`, { as: t.adminCookie })).body as {
        inventory_id: number;
      }
    ).inventory_id;
    const alias = await t.request('POST', `${p.base}/inventory/${workspaceId}/terraform/aliases`, {
      as: t.adminCookie,
      body: { auth_key_id: keyId },
    });
    const aliasName = (alias.body as { alias: string }).alias;

    expect(
      (await t.request('LOCK', `/api/terraform/${aliasName}`, { headers: auth, rawBody: lockInfo('held-by-a-person') }))
        .status,
    ).toBe(200);
    const blocked = await p.runTask(templateId, { params: { auto_approve: true } });
    expect((await p.waitForStatus(blocked, ['success', 'error'], 120_000)).status).toBe('error');
    expect((await p.output(blocked)).join('\n')).toContain('Error acquiring the state lock');
    expect(
      (
        await t.request('UNLOCK', `/api/terraform/${aliasName}`, {
          headers: auth,
          rawBody: lockInfo('held-by-a-person'),
        })
      ).status,
    ).toBe(200);

    const taskId = await p.runTask(templateId, { params: { auto_approve: true } });
    const done = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
    const lines = await p.output(taskId);
    expect(done.status, lines.join('\n')).toBe('success');
    expect(lines).toContain('The backend does not support workspaces; staying in the default workspace.');
    // The task's backend password reaches terraform through its environment and never the log.
    expect(lines.join('\n')).toContain('backend-password=********');
    expect(lines.join('\n')).not.toMatch(/backend-password=[A-Za-z0-9_-]{32}/);
    const states = await listStates(workspaceId);
    expect(states.length).toBeGreaterThanOrEqual(1);
    expect(states[0]).toMatchObject({ task_id: taskId, status: 'success' });
    expect((await latestState(workspaceId)).outputs.name?.value).toBe('first');
    expect((await probeLock(aliasName)).status).toBe(200);

    // Backend credentials of a task work only while the task runs. Asked again (a runner is handed its
    // job until it starts it), the task gets the same alias and password, not one more.
    const late = await t.runtime.services.terraformBackend.issueTaskBackend(
      { id: taskId, project_id: p.projectId },
      workspaceId,
    );
    const again = await t.runtime.services.terraformBackend.issueTaskBackend(
      { id: taskId, project_id: p.projectId },
      workspaceId,
    );
    expect(again).toEqual(late);
    const taskAliases = await t.runtime.connection.db
      .selectFrom('terraform_alias')
      .select('alias')
      .where('task_id', '=', taskId)
      .execute();
    expect(taskAliases).toHaveLength(1);
    t.secrets.add(late.password);
    const lateAlias = late.env.TF_HTTP_ADDRESS?.split('/').pop() ?? '';
    const lateAuth = { authorization: basic(late.env.TF_HTTP_USERNAME ?? '', late.password) };
    expect((await t.request('GET', `/api/terraform/${lateAlias}`, { headers: lateAuth })).status).toBe(401);
  });
});
