import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasBinary } from './machine.ts';
import { addMember, createProjectFixture, useProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';

const hasAnsible = hasBinary('ansible-playbook');
const hasTerraform = hasBinary('terraform');
if (!hasAnsible)
  console.warn('Skipping ansible task tests: ansible-playbook is not installed (apt-get install ansible-core)');
if (!hasTerraform) console.warn('Skipping real terraform task tests: terraform is not installed');

const VAULT_PASSWORD = 'vault-Pass-4242';

function encryptWithVault(value: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vault-'));
  const passwordFile = path.join(dir, 'pw');
  writeFileSync(passwordFile, VAULT_PASSWORD);
  return execFileSync(
    'ansible-vault',
    ['encrypt_string', '--vault-password-file', passwordFile, value, '--name', 'vaulted_message'],
    { encoding: 'utf8' },
  );
}

describe.skipIf(!hasAnsible)('ansible tasks against localhost', () => {
  const t = useTestApp('sqlite');
  let p: ProjectFixture;

  beforeAll(async () => {
    p = await createProjectFixture(t, {
      'site.yml': [
        '- hosts: all',
        '  gather_facts: false',
        '  vars_files: [vault.yml]',
        '  tasks:',
        '    - debug: msg="region={{ region }} answer={{ answer }} token={{ api_token }}"',
        '    - debug: msg="vault says {{ vaulted_message }}"',
        '    - command: "true"',
        '      check_mode: false',
        '',
      ].join('\n'),
      'vault.yml': encryptWithVault('opened the vault'),
      'details.yml': [
        '- hosts: all',
        '  gather_facts: false',
        '  tasks:',
        '    - debug: var=semaphore_vars',
        '    - debug: msg="said {{ semaphore_vars.task_details.message }} by {{ semaphore_vars.task_details.username }}"',
        '',
      ].join('\n'),
      'extra.yml': [
        '- hosts: all',
        '  gather_facts: false',
        '  tasks:',
        '    - debug: msg="extra playbook ran"',
        '',
      ].join('\n'),
    });
  });

  /** A playbook that creates `marker` when it runs, at `file` (made with its folders). */
  function writeMarkingPlaybook(file: string, marker: string): void {
    mkdirSync(path.dirname(file), { recursive: true });
    const play = ['- hosts: all', '  gather_facts: false', '  tasks:', `    - file: path=${marker} state=touch`, ''];
    writeFileSync(file, play.join('\n'));
  }

  it("renders neither a task's message nor its user's name as a template: task details are data", async () => {
    // Lower case throughout: usernames are stored lower-cased.
    const dir = path.join(os.tmpdir(), `gantry-details-${process.pid}-${Date.now()}`);
    mkdirSync(dir);
    const runner = await t.createUser('details-runner');
    await addMember(t, p.base, runner.id, 'task_runner');
    const username = `{{ lookup('pipe', 'touch ${dir}/by-name') }}`;
    const renamed = await t.request('PUT', `/api/users/${runner.id}`, {
      as: runner.cookie,
      body: { username, name: 'Details runner', email: 'details-runner@example.com' },
    });
    expect(renamed.status, renamed.text).toBe(204);
    const templateId = await p.createTemplate({
      app: 'ansible',
      playbook: 'details.yml',
      inventory_id: await p.createLocalInventory('details'),
    });
    const message = `{{ lookup('pipe', 'touch ${dir}/by-message') }} {% if true %}x{% endif %} café`;
    const taskId = await p.runTask(templateId, { message }, runner.cookie);
    const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
    const text = (await p.output(taskId)).join('\n');
    expect(task.status, text).toBe('success');
    expect(text).toContain(`said ${message} by ${username}`);
    expect(existsSync(path.join(dir, 'by-message'))).toBe(false);
    expect(existsSync(path.join(dir, 'by-name'))).toBe(false);
  });

  it("runs a task's more playbooks only from inside the repository: no link out of it, no installed collection", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'gantry-outside-'));
    writeMarkingPlaybook(path.join(outside, 'outside.yml'), path.join(outside, 'by-link'));
    const collections = path.join(t.runtime.config.data_dir, 'home', '.ansible', 'collections', 'ansible_collections');
    writeMarkingPlaybook(path.join(collections, 'evil', 'coll', 'playbooks', 'run.yml'), path.join(outside, 'by-name'));
    symlinkSync('/', path.join(p.repoDir, 'rootlink'));
    execFileSync('git', ['add', 'rootlink'], { cwd: p.repoDir });
    execFileSync('git', ['commit', '-q', '-m', 'a link out'], { cwd: p.repoDir });
    const runner = await t.createUser('playbooks-runner');
    await addMember(t, p.base, runner.id, 'task_runner');
    const templateId = await p.createTemplate({
      app: 'ansible',
      playbook: 'details.yml',
      inventory_id: await p.createLocalInventory('more playbooks'),
      allow_override_args_in_task: true,
    });
    const run = async (args: string[]) => {
      const taskId = await p.runTask(templateId, { arguments: JSON.stringify(args) }, runner.cookie);
      const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
      return { status: task.status, text: (await p.output(taskId)).join('\n') };
    };
    const viaLink = await run([`rootlink${outside}/outside.yml`]);
    expect(viaLink.status).toBe('error');
    expect(viaLink.text).toContain('leads outside its directory through a symbolic link');
    const viaCollection = await run(['evil.coll.run']);
    expect(viaCollection.status).toBe('error');
    expect(existsSync(path.join(outside, 'by-link'))).toBe(false);
    expect(existsSync(path.join(outside, 'by-name'))).toBe(false);
    const inside = await run(['-v', '--', 'extra.yml']);
    expect(inside.status, inside.text).toBe('success');
    expect(inside.text).toContain('extra playbook ran');
  });

  // Semaphore projects keep a vault password in a single-value `string` key; it opens the vault as a login_password key does.
  it.each([
    ['login_password', { login_password: { login: '', password: VAULT_PASSWORD } }],
    ['string', { string: VAULT_PASSWORD }],
  ])(
    'runs a playbook with inventory, extra variables, a var secret, a vault password (%s key) and --check',
    async (type, secret) => {
      t.secrets.add(VAULT_PASSWORD);
      t.secrets.add('api-Token-9000');
      const base = p.base;
      const vaultKey = await t.request('POST', `${base}/keys`, {
        as: t.adminCookie,
        body: { name: `vault ${type}`, type, ...secret },
      });
      expect(vaultKey.status, vaultKey.text).toBe(201);
      const inventoryId = await p.createLocalInventory(`local ${type}`);
      const groupId = await p.createVariableGroup(
        `ansible ${type}`,
        [{ type: 'var', name: 'api_token', secret: 'api-Token-9000' }],
        '{"region": "eu-west"}',
      );
      const templateId = await p.createTemplate({
        app: 'ansible',
        playbook: 'site.yml',
        inventory_id: inventoryId,
        environment_id: groupId,
        vaults: [{ name: '', type: 'password', vault_key_id: (vaultKey.body as { id: number }).id }],
        survey_vars: [{ name: 'answer', title: 'Answer', type: 'int', required: true }],
      });
      const taskId = await p.runTask(templateId, {
        environment: '{"answer": "42"}',
        params: { dry_run: true, diff: true },
      });
      const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
      const lines = await p.output(taskId);
      expect(task.status, lines.join('\n')).toBe('success');
      const text = lines.join('\n');
      expect(text).toContain('region=eu-west answer=42 token=********');
      expect(text).toContain('vault says opened the vault');
      expect(text).toMatch(/ansible-playbook .*--diff --check/);
      expect(text).not.toContain('api-Token-9000');
      expect(text).not.toContain(VAULT_PASSWORD);
    },
  );
});

describe.skipIf(!hasTerraform)('real terraform tasks', () => {
  const t = useTestApp('sqlite');
  const p = useProjectFixture(t, {
    'tf/main.tf': [
      'variable "greeting" { type = string }',
      'resource "terraform_data" "hello" { input = var.greeting }',
      'output "greeting" { value = terraform_data.hello.output }',
      '',
    ].join('\n'),
  });

  it('plans, waits for confirmation, applies, and finds no changes on the next run', async () => {
    const group = await t.request('POST', `${p.base}/environment`, {
      as: t.adminCookie,
      body: { name: 'tf', json: '{"greeting": "hello gantry"}', env: '{}' },
    });
    const templateId = await p.createTemplate({
      app: 'terraform',
      playbook: 'tf',
      environment_id: (group.body as { id: number }).id,
    });
    const first = await p.runTask(templateId);
    await p.waitForStatus(first, ['waiting_confirmation', 'error'], 120_000);
    await t.request('POST', `${p.base}/tasks/${first}/confirm`, { as: t.adminCookie });
    const done = await p.waitForStatus(first, ['success', 'error'], 120_000);
    const lines = await p.output(first);
    expect(done.status, lines.join('\n')).toBe('success');
    expect(lines.join('\n')).toContain('greeting = "hello gantry"');
    // terraform's outputs become the task's outputs for later workflow steps.
    const outputs = await t.request('GET', `${p.base}/tasks/${first}/outputs`, { as: t.adminCookie });
    expect(outputs.body).toEqual({ outputs: { greeting: 'hello gantry' } });

    const second = await p.runTask(templateId);
    expect((await p.waitForStatus(second, ['success', 'error', 'waiting_confirmation'], 120_000)).status).toBe(
      'success',
    );
    expect(await p.output(second)).toContain('No changes.');
  });
});
