import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../src/run-task.ts';
import { createGitRepository } from './support/git-fixture.ts';
import { buildSpec, keylessRepository } from './support/spec.ts';
import { createTaskHooks } from './support/task-hooks.ts';

describe('ansible key logins', () => {
  it('reach ansible through the environment, never argv or the log', async () => {
    const tools = mkdtempSync(path.join(os.tmpdir(), 'gantry-fake-ansible-'));
    const fake = path.join(tools, 'ansible-playbook');
    writeFileSync(fake, '#!/bin/sh\necho "argv: $*"\necho "remote=$ANSIBLE_REMOTE_USER become=$ANSIBLE_BECOME_USER"\n');
    chmodSync(fake, 0o755);
    const repo = createGitRepository({ 'site.yml': '- hosts: all\n' });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      app: 'ansible',
      app_path: fake,
      playbook: 'site.yml',
      repository: keylessRepository(1, repo.dir, ''),
      inventory: {
        id: 1,
        type: 'static',
        content: 'localhost\n',
        user_key: { type: 'ssh', login: 'deployer-login', passphrase: '', private_key: 'KEY' },
        become_key: { type: 'login_password', login: 'becomer-login', password: 'pw' },
      },
    });
    const outcome = await runTask(spec, hooks);
    expect(outcome, lines.join('\n')).toBe('success');
    expect(lines).toContain('remote=deployer-login become=becomer-login');
    const argvLines = lines.filter((l) => l.startsWith('$ ') || l.startsWith('argv: '));
    expect(argvLines).toHaveLength(2);
    for (const line of argvLines) {
      expect(line).not.toContain('deployer-login');
      expect(line).not.toContain('becomer-login');
    }
  });
});
