import {
  chownSync,
  existsSync,
  mkdirSync,
  rmSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInside } from '../src/contained-path.ts';
import { runTask } from '../src/run-task.ts';
import { TaskFailure } from '../src/task-failure.ts';
import {
  checkoutDirectory,
  createTaskWorkspace,
  privateFilesRoot,
  projectCheckoutsDirectory,
  removeLeftoverWorkspaces,
} from '../src/workspace.ts';
import { createGitRepository } from './support/git-fixture.ts';
import { buildSpec } from './support/spec.ts';
import { createTaskHooks } from './support/task-hooks.ts';

function createRoot(): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gantry-contained-')));
  mkdirSync(path.join(root, 'sub'));
  writeFileSync(path.join(root, 'sub', 'play.yml'), '- hosts: all\n');
  symlinkSync('/etc', path.join(root, 'etc-link'));
  symlinkSync(path.join(root, 'sub'), path.join(root, 'inner-link'));
  symlinkSync(path.join(root, 'missing-target'), path.join(root, 'dangling'));
  return root;
}

describe('resolveInside', () => {
  it('accepts paths inside the root, existing or not, and links that stay inside', () => {
    const root = createRoot();
    expect(resolveInside(root, 'sub/play.yml')).toBe(path.join(root, 'sub', 'play.yml'));
    expect(resolveInside(root, 'sub/../sub/new.yml')).toBe(path.join(root, 'sub', 'new.yml'));
    expect(resolveInside(root, 'inner-link/play.yml')).toBe(path.join(root, 'sub', 'play.yml'));
    expect(resolveInside(root, '')).toBe(root);
    expect(resolveInside(root, '.')).toBe(root);
    expect(resolveInside(root, '..hidden')).toBe(path.join(root, '..hidden'));
  });

  it('refuses absolute paths, .. escapes, NUL bytes, links leading out and broken links', () => {
    const root = createRoot();
    for (const input of [
      '/etc/passwd',
      '../x',
      '../../etc/x',
      'sub/../../x',
      '..',
      'sub/play.yml\0',
      'etc-link/passwd',
      'etc-link',
      'etc-link/not-there/x',
      'dangling',
    ]) {
      expect(() => resolveInside(root, input, 'The playbook'), input).toThrow(TaskFailure);
    }
    expect(() => resolveInside(root, '../../etc/x', 'The playbook')).toThrow(
      'The playbook "../../etc/x" leaves its directory',
    );
    expect(() => resolveInside(root, 'etc-link/passwd', 'The playbook')).toThrow('through a symbolic link');
  });
});

describe('task workspaces', () => {
  it('keep no input in file names, and cleanup removes every file', () => {
    const workRoot = mkdtempSync(path.join(os.tmpdir(), 'gantry-ws-'));
    const memory = mkdtempSync(path.join(os.tmpdir(), 'gantry-mem-'));
    const workspace = createTaskWorkspace(workRoot, 7, 'tasks', memory);
    const victim = path.join(workRoot, 'victim');
    writeFileSync(victim, 'original');
    const written = [
      workspace.writePrivateFile('../../victim', 'evil'),
      workspace.writePrivateFile('id_key', 'KEY'),
      workspace.writePrivateFile('a/b\\c', 'x'),
    ];
    expect(readFileSync(victim, 'utf8')).toBe('original');
    for (const file of written) {
      expect(path.dirname(file)).toBe(workspace.dir);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(workspace.dir.startsWith(memory + path.sep)).toBe(true);
    expect(statSync(workspace.dir).mode & 0o777).toBe(0o700);
    workspace.cleanup();
    expect(existsSync(workspace.dir)).toBe(false);
    expect(readdirSync(path.join(privateFilesRoot(workRoot, memory), 'tasks'))).toEqual([]);
  });

  it('start-up cleanup removes what a killed process left in the memory directory and in the work root', () => {
    const workRoot = mkdtempSync(path.join(os.tmpdir(), 'gantry-ws-'));
    const memory = mkdtempSync(path.join(os.tmpdir(), 'gantry-mem-'));
    const left = createTaskWorkspace(workRoot, 8, 'tasks', memory).writePrivateFile('id_key', 'KEY');
    const check = createTaskWorkspace(workRoot, 9, 'checks', memory).writePrivateFile('id_key', 'KEY');
    mkdirSync(path.join(workRoot, 'tasks', 'task_3'), { recursive: true });
    writeFileSync(path.join(workRoot, 'tasks', 'task_3', '1-id_key'), 'OLD KEY');
    writeFileSync(path.join(memory, 'not-ours'), 'keep');
    removeLeftoverWorkspaces(workRoot, memory);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(check)).toBe(false);
    expect(existsSync(path.join(workRoot, 'tasks'))).toBe(false);
    expect(readFileSync(path.join(memory, 'not-ours'), 'utf8')).toBe('keep');
  });

  it("start-up cleanup removes the per-task checkouts of killed tasks, and keeps templates' shared ones", () => {
    const workRoot = mkdtempSync(path.join(os.tmpdir(), 'gantry-ws-'));
    const memory = mkdtempSync(path.join(os.tmpdir(), 'gantry-mem-'));
    const spec = { project_id: 3, template_id: 5, task_id: 6 };
    const shared = checkoutDirectory(workRoot, buildSpec({ ...spec, private_checkout: false }));
    const perTask = checkoutDirectory(workRoot, buildSpec({ ...spec, private_checkout: true }));
    for (const dir of [shared, perTask]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'site.yml'), '- hosts: all\n');
    }
    // A project directory that is a link leads elsewhere: nothing there is touched.
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'gantry-elsewhere-'));
    mkdirSync(path.join(elsewhere, 'repository_1_template_1_task_1'));
    symlinkSync(elsewhere, path.join(workRoot, 'repositories', 'project_7'));
    removeLeftoverWorkspaces(workRoot, memory);
    expect(path.dirname(perTask)).toBe(projectCheckoutsDirectory(workRoot, 3));
    expect(existsSync(perTask)).toBe(false);
    expect(readFileSync(path.join(shared, 'site.yml'), 'utf8')).toBe('- hosts: all\n');
    expect(readdirSync(elsewhere)).toEqual(['repository_1_template_1_task_1']);
  });

  it('a memory directory that is a link or owned by another user is not used: the work root serves instead', () => {
    const memory = mkdtempSync(path.join(os.tmpdir(), 'gantry-mem-'));
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'gantry-elsewhere-'));
    const linked = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gantry-ws-')));
    const linkedRoot = privateFilesRoot(linked, memory);
    expect(path.dirname(linkedRoot)).toBe(memory);
    rmSync(linkedRoot, { recursive: true });
    symlinkSync(elsewhere, linkedRoot);
    expect(privateFilesRoot(linked, memory)).toBe(linked);
    const file = createTaskWorkspace(linked, 1, 'tasks', memory).writePrivateFile('id_key', 'KEY');
    expect(file.startsWith(linked + path.sep)).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);

    const foreign = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'gantry-ws-')));
    const foreignRoot = privateFilesRoot(foreign, memory);
    if (process.getuid?.() === 0) {
      chownSync(foreignRoot, 65534, 65534);
      expect(privateFilesRoot(foreign, memory)).toBe(foreign);
    }
  });
});

describe('tasks with paths that leave the repository', () => {
  it('fail with a clear line and run nothing', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo ran\n', 'infra/main.tf': '' });
    symlinkSync('/etc', path.join(repo.dir, 'etc-link'));
    const repository = { id: 1, url: repo.dir, branch: '', key: { type: 'none' as const }, commit_hash: null };
    const cases = [
      buildSpec({ playbook: '../../etc/x', repository }),
      buildSpec({ playbook: '/bin/true', repository }),
      buildSpec({ playbook: 'etc-link/passwd', repository }),
      buildSpec({ app: 'terraform', playbook: 'etc-link', repository }),
      buildSpec({ app: 'pulumi', playbook: '../', repository }),
      buildSpec({ app: 'ansible', playbook: 'etc-link/x.yml', repository }),
      buildSpec({
        app: 'ansible',
        playbook: 'run.sh',
        repository,
        inventory: {
          id: 1,
          type: 'file',
          content: 'etc-link/hosts',
          user_key: { type: 'none' },
          become_key: { type: 'none' },
        },
      }),
      buildSpec({
        app: 'ansible',
        playbook: 'run.sh',
        repository,
        vaults: [{ name: 'v', type: 'script', password: '', script: 'etc-link/vault-client' }],
      }),
    ];
    for (const spec of cases) {
      const { hooks, lines } = createTaskHooks();
      expect(await runTask(spec, hooks)).toBe('error');
      expect(lines.some((l) => l.startsWith('$ '))).toBe(false);
      expect(lines.at(-1), spec.playbook).toMatch(
        /^The (playbook|script|working directory|inventory file|vault script) ".*" (leaves its directory|must be relative, not absolute|leads outside its directory through a symbolic link)$/,
      );
    }
  });
});
