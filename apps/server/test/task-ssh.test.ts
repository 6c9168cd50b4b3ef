import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository } from './task-fixture.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const SSHD = '/usr/sbin/sshd';
const canRun = existsSync(SSHD) && process.getuid?.() === 0 && existsSync('/usr/bin/ansible-playbook');
if (!canRun) console.warn('Skipping ssh task tests: they need root, openssh-server and ansible-core');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
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
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, privateKey: readFileSync(path.join(dir, 'client_key'), 'utf8'), dir, stop: () => child.kill('SIGTERM') };
}

describe.skipIf(!canRun)('tasks over ssh with a passphrase-protected key', () => {
  let t: TestApp;
  let sshd: Awaited<ReturnType<typeof startSshd>>;

  beforeAll(async () => {
    sshd = await startSshd();
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
    sshd.stop();
    rmSync(sshd.dir, { recursive: true, force: true });
  });

  it('clones the repository over ssh and runs the playbook against the host over ssh, the key never shown', async () => {
    t.secrets.add(PASSPHRASE);
    const repo = createGitRepository({
      'site.yml': ['- hosts: all', '  gather_facts: false', '  tasks:', '    - command: whoami', '      register: me', '    - debug: msg="connected as {{ me.stdout }}"', ''].join('\n'),
    });
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'SSH' } });
    const base = `/api/project/${(project.body as { id: number }).id}`;
    const key = await t.request('POST', `${base}/keys`, {
      as: t.adminCookie,
      body: { name: 'deploy', type: 'ssh', ssh: { login: 'root', passphrase: PASSPHRASE, private_key: sshd.privateKey } },
    });
    const keyId = (key.body as { id: number }).id;
    const repository = await t.request('POST', `${base}/repositories`, {
      as: t.adminCookie,
      body: { name: 'over ssh', git_url: `ssh://root@127.0.0.1:${sshd.port}${repo.dir}`, git_branch: 'main', ssh_key_id: keyId },
    });
    const inventory = await t.request('POST', `${base}/inventory`, {
      as: t.adminCookie,
      body: { name: 'host', type: 'static', inventory: `target ansible_host=127.0.0.1 ansible_port=${sshd.port} ansible_python_interpreter=/usr/bin/python3`, ssh_key_id: keyId },
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
    const created = await t.request('POST', `${base}/tasks`, { as: t.adminCookie, body: { template_id: (template.body as { id: number }).id } });
    const taskId = (created.body as { id: number }).id;
    let task: { status: string } = { status: 'waiting' };
    for (let i = 0; i < 1200 && !['success', 'error'].includes(task.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      task = (await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as { status: string };
    }
    const lines = ((await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as { output: string }[]).map((l) => l.output);
    expect(task.status, lines.join('\n')).toBe('success');
    expect(lines.join('\n')).toContain('connected as root');
    expect(lines.join('\n')).not.toContain('PRIVATE KEY');
  });
});
