import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectFixture, type ProjectFixture } from '../task-fixture.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

const VAULT_PASSWORD = 'string-Vault-Pass-77';

function hasAnsible(): boolean {
  try {
    execFileSync('which', ['ansible-playbook'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function encryptWithVault(value: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compat-vault-'));
  try {
    const passwordFile = path.join(dir, 'pw');
    writeFileSync(passwordFile, VAULT_PASSWORD);
    return execFileSync(
      'ansible-vault',
      ['encrypt_string', '--vault-password-file', passwordFile, value, '--name', 'vaulted_message'],
      { encoding: 'utf8' },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Semaphore project keeps its vault password in a `string` key: in Gantry it opens the vault as well (the store side runs on all databases in semaphore-clients). */
describe.skipIf(!hasAnsible())("a Semaphore string key as a template's vault password", () => {
  let t: TestApp;
  let p: ProjectFixture;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    p = await createProjectFixture(t, {
      'site.yml': [
        '- hosts: all',
        '  gather_facts: false',
        '  vars_files: [vault.yml]',
        '  tasks:',
        '    - debug: msg="vault says {{ vaulted_message }}"',
        '',
      ].join('\n'),
      'vault.yml': encryptWithVault('opened by a string key'),
    });
  });
  afterAll(() => t.close());

  it('opens the vault and never shows the value', async () => {
    t.secrets.add(VAULT_PASSWORD);
    const key = await t.request('POST', `${p.base}/keys`, {
      as: t.adminCookie,
      body: { name: 'Vault value', type: 'string', string: VAULT_PASSWORD },
    });
    expect(key.status, key.text).toBe(201);
    const inventory = await t.request('POST', `${p.base}/inventory`, {
      as: t.adminCookie,
      body: {
        name: 'local',
        type: 'static',
        inventory: 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3',
        ssh_key_id: p.noneKeyId,
      },
    });
    const templateId = await p.createTemplate({
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: (inventory.body as { id: number }).id,
      vaults: [{ name: '', type: 'password', vault_key_id: (key.body as { id: number }).id }],
    });
    const taskId = await p.runTask(templateId);
    const task = await p.waitForStatus(taskId, ['success', 'error'], 120_000);
    const text = (await p.output(taskId)).join('\n');
    expect(task.status, text).toBe('success');
    expect(text).toContain('vault says opened by a string key');
    expect(text).not.toContain(VAULT_PASSWORD);
  });

  it('fails a task whose repository key (restored from a backup) is a string key, saying why', async () => {
    const backup = {
      meta: { name: 'String key as git key' },
      keys: [{ name: 'Token', type: 'string' }],
      repositories: [{ name: 'Scripts', git_url: p.repoDir, git_branch: 'main', ssh_key: 'Token' }],
      environments: [{ name: 'Empty', json: '{}' }],
      templates: [{ name: 'Run', app: 'bash', playbook: 'site.yml', repository: 'Scripts', environment: 'Empty' }],
    };
    const restored = await t.request('POST', '/api/projects/restore', { as: t.adminCookie, body: backup });
    expect(restored.status, restored.text).toBe(200);
    const base = `/api/project/${(restored.body as { id: number }).id}`;
    const [template] = (await t.request('GET', `${base}/templates`, { as: t.adminCookie })).body as { id: number }[];
    const started = await t.request('POST', `${base}/tasks`, {
      as: t.adminCookie,
      body: { template_id: template?.id },
    });
    expect(started.status, started.text).toBe(201);
    const taskId = (started.body as { id: number }).id;
    for (let i = 0; i < 400; i++) {
      const task = (await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as {
        status: string;
      };
      if (task.status === 'error') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const output = (
      (await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as { output: string }[]
    ).map((line) => line.output);
    expect(output.join('\n')).toMatch(
      /Access key "Token" holds a single value \(type string\) and cannot be used to log in/,
    );
  });
});
