import { execFileSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRunnerAgent, createRunnerClient, privateFilesRoot } from '@gantry/runner';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRepository } from '../../../packages/runner/test/support/git-fixture.ts';
import { freePort } from './machine.ts';
import { startServerProcess } from './server-process-fixture.ts';

const PASSWORD = 'atRest-Pass-1';

/** Every regular file under `dir` (links are not followed) whose content holds `needle`. */
function findFilesHolding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (readFileSync(file, 'latin1').includes(needle)) found.push(file);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

describe('secrets at rest', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  /** A real server process started under a permissive umask, as a careless service manager would. */
  async function start(dataDir: string, port: number): Promise<ChildProcess> {
    const { child } = await startServerProcess({
      dataDir,
      port,
      permissiveUmask: true,
      env: { GANTRY_ADMIN_LOGIN: 'admin', GANTRY_ADMIN_PASSWORD: PASSWORD },
    });
    children.push(child);
    return child;
  }

  async function signIn(url: string) {
    const login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: 'admin', password: PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return (text ? JSON.parse(text) : {}) as Record<string, unknown> & { id: number };
    };
  }

  it('keeps the data directory, the store and the key file private under a permissive umask, fixing an older installation', async () => {
    const dataDir = path.join(tempDir('gantry-perm-'), 'data');
    // An installation from before: world-readable directory and key file.
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'gantry.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`, { mode: 0o644 });
    chmodSync(path.join(dataDir, 'gantry.key'), 0o644);
    const port = await freePort();
    const server = await start(dataDir, port);
    const call = await signIn(`http://127.0.0.1:${port}`);
    await call('POST', '/api/projects', { name: 'Writes to the store' });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'gantry.key'))).toBe(0o600);
    for (const name of ['gantry.sqlite', 'gantry.sqlite-wal', 'gantry.sqlite-shm']) {
      expect(existsSync(path.join(dataDir, name)), name).toBe(true);
      expect(modeOf(path.join(dataDir, name)), name).toBe(0o600);
    }
    for (const entry of readdirSync(dataDir, { withFileTypes: true, recursive: true })) {
      const mode = modeOf(path.join(entry.parentPath, entry.name));
      expect(mode & 0o077, path.join(entry.parentPath, entry.name)).toBe(0);
    }
    server.kill('SIGKILL');
  });

  /** A real server running an Ansible task that hangs, holding an SSH key with a passphrase. */
  async function startHangingKeyTask(dataDir: string, port: number) {
    const keyDir = tempDir('gantry-kill-key-');
    const passphrase = `kill-Test-passphrase-${port}`;
    execFileSync('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      passphrase,
      '-C',
      'gantry-test',
      '-f',
      path.join(keyDir, 'id'),
    ]);
    const privateKey = readFileSync(path.join(keyDir, 'id'), 'utf8');
    // A line from the middle of the key: present in any copy of it, and nowhere else.
    const keyLine = privateKey.split('\n')[2] ?? '';
    expect(keyLine.length).toBeGreaterThan(40);
    const repo = createGitRepository({
      'hang.yml': '- hosts: all\n  gather_facts: false\n  tasks:\n    - name: hang\n      command: sleep 300\n',
    });
    dirs.push(repo.dir);

    const url = `http://127.0.0.1:${port}`;
    const server = await start(dataDir, port);
    const call = await signIn(url);
    const project = await call('POST', '/api/projects', { name: 'Killed' });
    const base = `/api/project/${project.id}`;
    const [none] = (await call('GET', `${base}/keys`)) as unknown as { id: number }[];
    const [group] = (await call('GET', `${base}/environment`)) as unknown as { id: number }[];
    const key = await call('POST', `${base}/keys`, {
      name: 'deploy',
      type: 'ssh',
      ssh: { login: 'deployer', passphrase, private_key: privateKey },
    });
    expect(key.id, JSON.stringify(key)).toBeGreaterThan(0);
    const inventory = await call('POST', `${base}/inventory`, {
      name: 'local',
      type: 'static',
      inventory: 'localhost ansible_connection=local\n',
      ssh_key_id: key.id,
    });
    expect(inventory.id, JSON.stringify(inventory)).toBeGreaterThan(0);
    const repository = await call('POST', `${base}/repositories`, {
      name: 'plays',
      git_url: repo.url,
      git_branch: 'main',
      ssh_key_id: none?.id,
    });
    const template = await call('POST', `${base}/templates`, {
      name: 'Hang',
      app: 'ansible',
      playbook: 'hang.yml',
      inventory_id: inventory.id,
      repository_id: repository.id,
      environment_id: group?.id,
    });
    expect(template.id, JSON.stringify(template)).toBeGreaterThan(0);
    const task = await call('POST', `${base}/tasks`, { template_id: template.id });

    let hanging = false;
    for (let i = 0; i < 600 && !hanging; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const output = (await call('GET', `${base}/tasks/${task.id}/output`)) as unknown as { output: string }[];
      hanging = output.some((l) => l.output.includes('TASK [hang]'));
    }
    expect(hanging).toBe(true);
    const memoryRoot = privateFilesRoot(dataDir);
    const places = [dataDir, memoryRoot];
    // While the task runs, its key, passphrase and askpass script are on disk (this is what must not last).
    const whileRunning = places.flatMap((dir) => [
      ...findFilesHolding(dir, keyLine),
      ...findFilesHolding(dir, passphrase),
    ]);
    expect(whileRunning.length).toBeGreaterThanOrEqual(2);
    expect(
      whileRunning.some((f) => f.startsWith(dataDir + path.sep)),
      'kept off the data directory when a memory file system exists',
    ).toBe(memoryRoot === dataDir);
    const expectNothingLeft = () => {
      for (const dir of places) {
        expect(findFilesHolding(dir, keyLine), dir).toEqual([]);
        expect(findFilesHolding(dir, passphrase), dir).toEqual([]);
      }
    };
    return { server, call, base, taskId: task.id, whileRunning, expectNothingLeft };
  }

  it('leaves no decrypted key, passphrase or askpass script behind after the server is killed during a task', async () => {
    const dataDir = tempDir('gantry-kill-');
    const port = await freePort();
    const running = await startHangingKeyTask(dataDir, port);
    running.server.kill('SIGKILL');
    await new Promise((resolve) => running.server.once('exit', resolve));
    expect(running.whileRunning.filter((f) => existsSync(f)).length).toBeGreaterThanOrEqual(2);

    const second = await start(dataDir, port);
    running.expectNothingLeft();
    second.kill('SIGKILL');
  });

  it.each([false, true])('leaves no decrypted key behind when the task is stopped (force: %s)', async (force) => {
    const running = await startHangingKeyTask(tempDir('gantry-stop-'), await freePort());
    await running.call('POST', `${running.base}/tasks/${running.taskId}/stop`, { force });
    await expect
      .poll(async () => (await running.call('GET', `${running.base}/tasks/${running.taskId}`)).status, {
        timeout: 20_000,
      })
      .toBe('stopped');
    running.expectNothingLeft();
    running.server.kill('SIGKILL');
  });

  it('a runner removes the task files a killed runner left before it takes any job', async () => {
    const workDir = tempDir('gantry-runner-work-');
    const memoryRoot = privateFilesRoot(workDir);
    const leftovers = [
      path.join(workDir, 'tasks', 'task_4', '1-id_key'),
      path.join(memoryRoot, 'tasks', 'task_5', '1-id_key'),
      path.join(memoryRoot, 'checks', 'check_2', '1-id_key'),
    ];
    for (const file of leftovers) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, 'LEFT KEY');
    }
    const port = await freePort();
    const lines: string[] = [];
    const agent = createRunnerAgent({
      client: createRunnerClient(`http://127.0.0.1:${port}`, 'token'),
      workDir,
      baseEnv: {},
      print: (line) => lines.push(line),
      pollWaitSeconds: 1,
    });
    const running = agent.run();
    await expect.poll(() => lines.some((l) => l.startsWith('Cannot reach the server'))).toBe(true);
    for (const file of leftovers) expect(existsSync(file), file).toBe(false);
    expect(modeOf(workDir)).toBe(0o700);
    agent.stop();
    await running;
  });
});
