import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('paths built from input stay inside their roots on %s', (dialect) => {
  const t = useTestApp(dialect);
  const p = useProjectFixture(t, { 'run.sh': 'echo ran\n', 'infra/main.tf': '', 'site.yml': '- hosts: all\n' });
  let passwordKeyId: number;

  beforeAll(async () => {
    // A repository is its committers' content: it may hold a link to anywhere on the server.
    symlinkSync('/etc', path.join(p.repoDir, 'etc-link'));
    execFileSync('git', ['add', '-A'], { cwd: p.repoDir });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'link'], {
      cwd: p.repoDir,
    });
    passwordKeyId = await p.createLoginPasswordKey('vault', '', 'vault-pass');
  });

  const template = (fields: Record<string, unknown>) =>
    t.request('POST', `${p.base}/templates`, { as: t.adminCookie, body: p.templateBody(fields) });

  it('refuses absolute playbooks and .. segments with a 400', async () => {
    for (const playbook of ['../../etc/x', '/etc/passwd', 'ok/../../x', '..', '..\\x']) {
      const response = await template({ playbook });
      expect(response.status, playbook).toBe(400);
      expect((response.body as { error: string }).error, playbook).toMatch(
        /Playbook must be a path inside the repository/,
      );
    }
  });

  it('keeps ordinary playbooks and working directories valid', async () => {
    for (const fields of [
      { playbook: 'run.sh' },
      { playbook: 'scripts/deploy/run.sh' },
      { playbook: './run.sh' },
      { playbook: 'my..file.sh' },
      { app: 'terraform', playbook: '' },
      { app: 'terraform', playbook: 'infra' },
    ]) {
      const response = await template(fields);
      expect(response.status, JSON.stringify([fields, response.body])).toBe(201);
    }
  });

  it('refuses vault names that are paths and vault scripts outside the repository with a 400', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '../../x', type: 'password', vault_key_id: passwordKeyId }, /Vault name may only hold/],
      [{ name: 'a/b', type: 'password', vault_key_id: passwordKeyId }, /Vault name may only hold/],
      [{ name: '..', type: 'password', vault_key_id: passwordKeyId }, /Vault name may only hold/],
      [{ name: 'x'.repeat(101), type: 'password', vault_key_id: passwordKeyId }, /at most 100 characters/],
      [
        { name: 'prod', type: 'script', script: '../../bin/evil-client' },
        /Vault script must be a path inside the repository/,
      ],
      [
        { name: 'prod', type: 'script', script: '/usr/bin/evil-client' },
        /Vault script must be a path inside the repository/,
      ],
    ];
    for (const [vault, message] of cases) {
      const response = await template({ playbook: 'run.sh', vaults: [vault] });
      expect(response.status, JSON.stringify(vault)).toBe(400);
      expect((response.body as { error: string }).error).toMatch(message);
    }
    const ok = await template({
      playbook: 'run.sh',
      vaults: [
        { name: 'Prod_1.a-b', type: 'password', vault_key_id: passwordKeyId },
        { name: 'other', type: 'script', script: 'vault/get-client.py' },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses a task that replaces the playbook with a path outside the repository', async () => {
    const templateId = await p.createTemplate({ playbook: 'run.sh' });
    const response = await t.request('POST', `${p.base}/tasks`, {
      as: t.adminCookie,
      body: { template_id: templateId, playbook: '../../etc/x' },
    });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(/Playbook must be a path inside the repository/);
  });

  it('ends a task whose playbook leads out through a symlink with a clear line, running nothing', async () => {
    const templateId = await p.createTemplate({ playbook: 'etc-link/hostname' });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('error');
    const lines = await p.output(taskId);
    expect(lines).toContain('The script "etc-link/hostname" leads outside its directory through a symbolic link');
    expect(lines.some((l) => l.startsWith('$ bash'))).toBe(false);
  });

  it('ends a terraform task whose directory is a link out of the repository', async () => {
    const templateId = await p.createTemplate({ app: 'terraform', playbook: 'etc-link' });
    const taskId = await p.runTask(templateId);
    expect((await p.waitForStatus(taskId, ['success', 'error'])).status).toBe('error');
    expect(await p.output(taskId)).toContain(
      'The working directory "etc-link" leads outside its directory through a symbolic link',
    );
  });
});
