import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isListening } from './machine.ts';
import { createGitRepository } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const SSHD = '/usr/sbin/sshd';
const canRun = existsSync(SSHD) && process.getuid?.() === 0 && existsSync('/usr/bin/ansible-playbook');
if (!canRun) console.warn('Skipping ssh task tests: they need root, openssh-server and ansible-core');
const canBecome = canRun && existsSync('/usr/bin/sudo');
if (canRun && !canBecome) console.warn('Skipping the ssh become test: it needs sudo');

const DEPLOY_USER = 'gantry-deploy';
const DEPLOY_PASSWORD = 'sudo-Pa55-for-deploy';

/** A login user that must give its password to sudo, as on most servers Ansible reaches. */
function ensureDeployUser(sshdDir: string): void {
  try {
    execFileSync('id', [DEPLOY_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--create-home', '--shell', '/bin/bash', DEPLOY_USER]);
  }
  execFileSync('chpasswd', { input: `${DEPLOY_USER}:${DEPLOY_PASSWORD}\n` });
  writeFileSync(`/etc/sudoers.d/${DEPLOY_USER}`, `${DEPLOY_USER} ALL=(ALL) ALL\n`, { mode: 0o440 });
  // sshd reads the shared authorized_keys file as the user who logs in.
  chmodSync(sshdDir, 0o755);
}

const PASSPHRASE = 'key-Passphrase-31';

/** A real sshd on 127.0.0.1 that accepts one generated, passphrase-protected key for root. */
async function startSshd(): Promise<{ port: number; privateKey: string; stop(): void; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-sshd-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', PASSPHRASE, '-f', path.join(dir, 'client_key')]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_key.pub')));
  const port = await freePort();
  writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${path.join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'StrictModes no',
      'UsePAM no',
      '',
    ].join('\n'),
  );
  mkdirSync('/run/sshd', { recursive: true });
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    if (await isListening(port)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    privateKey: readFileSync(path.join(dir, 'client_key'), 'utf8'),
    dir,
    stop: () => child.kill('SIGTERM'),
  };
}

describe.skipIf(!canRun)('tasks over ssh with a passphrase-protected key', () => {
  let t: TestApp;
  let sshd: Awaited<ReturnType<typeof startSshd>>;

  beforeAll(async () => {
    sshd = await startSshd();
    if (canBecome) ensureDeployUser(sshd.dir);
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
    sshd.stop();
    if (canBecome) rmSync(`/etc/sudoers.d/${DEPLOY_USER}`, { force: true });
    rmSync(sshd.dir, { recursive: true, force: true });
  });

  /** A project whose repository (as root) and inventory host (as `login`) are both reached over ssh with one key; runs its playbook to the end. */
  async function runOverSsh(options: {
    login: string;
    playbookTasks: string[];
    become?: { login: string; password: string };
  }) {
    t.secrets.add(PASSPHRASE);
    const repo = createGitRepository({
      'site.yml': ['- hosts: all', '  gather_facts: false', '  tasks:', ...options.playbookTasks, ''].join('\n'),
    });
    const project = await t.request('POST', '/api/projects', {
      as: t.adminCookie,
      body: { name: `SSH ${options.login}` },
    });
    const base = `/api/project/${(project.body as { id: number }).id}`;
    const key = await t.request('POST', `${base}/keys`, {
      as: t.adminCookie,
      body: {
        name: 'deploy',
        type: 'ssh',
        ssh: { login: options.login, passphrase: PASSPHRASE, private_key: sshd.privateKey },
      },
    });
    const keyId = (key.body as { id: number }).id;
    let becomeKeyId: number | undefined;
    if (options.become) {
      t.secrets.add(options.become.password);
      const become = await t.request('POST', `${base}/keys`, {
        as: t.adminCookie,
        body: { name: 'sudo', type: 'login_password', login_password: options.become },
      });
      becomeKeyId = (become.body as { id: number }).id;
    }
    const repository = await t.request('POST', `${base}/repositories`, {
      as: t.adminCookie,
      body: {
        name: 'over ssh',
        git_url: `ssh://root@127.0.0.1:${sshd.port}${repo.dir}`,
        git_branch: 'main',
        ssh_key_id: keyId,
      },
    });
    const inventory = await t.request('POST', `${base}/inventory`, {
      as: t.adminCookie,
      body: {
        name: 'host',
        type: 'static',
        inventory: `target ansible_host=127.0.0.1 ansible_port=${sshd.port} ansible_python_interpreter=/usr/bin/python3`,
        ssh_key_id: keyId,
        ...(becomeKeyId ? { become_key_id: becomeKeyId } : {}),
      },
    });
    const groups = (await t.request('GET', `${base}/environment`, { as: t.adminCookie })).body as { id: number }[];
    const template = await t.request('POST', `${base}/templates`, {
      as: t.adminCookie,
      body: {
        name: 'Remote',
        app: 'ansible',
        playbook: 'site.yml',
        repository_id: (repository.body as { id: number }).id,
        inventory_id: (inventory.body as { id: number }).id,
        environment_id: groups[0]?.id,
      },
    });
    const created = await t.request('POST', `${base}/tasks`, {
      as: t.adminCookie,
      body: { template_id: (template.body as { id: number }).id },
    });
    const taskId = (created.body as { id: number }).id;
    let task: { status: string } = { status: 'waiting' };
    for (let i = 0; i < 1200 && !['success', 'error'].includes(task.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = (await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as { status: string };
    }
    const lines = (
      (await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as { output: string }[]
    ).map((l) => l.output);
    return { status: task.status, log: lines.join('\n') };
  }

  it('clones the repository over ssh and runs the playbook against the host over ssh, the key never shown', async () => {
    const { status, log } = await runOverSsh({
      login: 'root',
      playbookTasks: ['    - command: whoami', '      register: me', '    - debug: msg="connected as {{ me.stdout }}"'],
    });
    expect(status, log).toBe('success');
    expect(log).toContain('connected as root');
    expect(log).not.toContain('PRIVATE KEY');
  });

  it.skipIf(!canBecome)(
    "connects as an unprivileged user and becomes root with the become key's sudo password, never shown",
    async () => {
      const { status, log } = await runOverSsh({
        login: DEPLOY_USER,
        become: { login: 'root', password: DEPLOY_PASSWORD },
        playbookTasks: [
          '    - command: whoami',
          '      register: plain',
          '    - command: whoami',
          '      become: true',
          '      register: elevated',
          '    - debug: msg="{{ plain.stdout }} became {{ elevated.stdout }}"',
        ],
      });
      expect(status, log).toBe('success');
      expect(log).toContain(`${DEPLOY_USER} became root`);
    },
  );
});
