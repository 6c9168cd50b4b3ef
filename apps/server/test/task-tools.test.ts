import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasBinary } from './machine.ts';
import { createProjectFixture, useProjectFixture, type ProjectFixture } from './task-fixture.ts';
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
    });
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
