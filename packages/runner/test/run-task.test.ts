import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTask } from '../src/run-task.ts';
import { checkoutDirectory } from '../src/workspace.ts';
import { createGitRepository } from './support/git-fixture.ts';
import { startGitHttpServer } from './support/git-http-server.ts';
import { buildSpec, keylessRepository } from './support/spec.ts';
import { createTaskHooks } from './support/task-hooks.ts';

describe('runTask with script apps', () => {
  it('runs a bash script from a git repository with arguments, variables and the commit recorded', async () => {
    const repo = createGitRepository({ 'scripts/run.sh': 'echo "args: $*"\necho "env: $APP_ENV"\n' }, 'Add run script');
    const { hooks, lines, commits } = createTaskHooks();
    const spec = buildSpec({
      playbook: 'scripts/run.sh',
      repository: keylessRepository(1, repo.url),
      template_args: ['--flag'],
      task_args: ['extra'],
      extra_vars: { region: 'eu', replicas: 2 },
      env: { APP_ENV: 'production' },
    });
    expect(await runTask(spec, hooks)).toBe('success');
    expect(lines).toContain('args: --flag region=eu replicas=2 extra');
    expect(lines).toContain('env: production');
    expect(commits).toEqual([
      [execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim(), 'Add run script'],
    ]);
  });

  it('a second run fetches new commits into the same working copy', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo v1\n' });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      repository: keylessRepository(2, repo.url),
    });
    expect(await runTask(spec, hooks)).toBe('success');
    repo.commit({ 'run.sh': 'echo v2\n' }, 'v2');
    expect(await runTask({ ...spec, task_id: spec.task_id + 500 }, hooks)).toBe('success');
    expect(lines.filter((l) => /^v\d$/.test(l))).toEqual(['v1', 'v2']);
  });

  it('a branch that looks like an option never reaches git as one when an existing working copy is fetched', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo v1\n' });
    const { hooks } = createTaskHooks();
    const spec = buildSpec({
      repository: keylessRepository(3, repo.url),
    });
    expect(await runTask(spec, hooks)).toBe('success');
    // Branches are checked at the API, but a working copy must not run a command whatever a stored one says.
    const marker = path.join(hooks.workRoot, 'upload-pack-ran');
    const branch = `--upload-pack=touch ${marker}; git-upload-pack`;
    expect(
      await runTask({ ...spec, task_id: spec.task_id + 500, repository: { ...spec.repository, branch } }, hooks),
    ).toBe('error');
    expect(existsSync(marker)).toBe(false);
  });

  it('clones over http with credentials written into the URL, which reach no log line, command line or checkout', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo cloned over http\n' });
    const server = await startGitHttpServer(path.dirname(repo.dir), 'deploy-user', 'hunter2-Git-Pass');
    try {
      const { hooks, lines } = createTaskHooks();
      const withCredentials = (password: string) =>
        `${server.url.replace('//', `//deploy-user:${password}@`)}/${path.basename(repo.dir)}`;
      const spec = buildSpec({ repository: keylessRepository(41, withCredentials('hunter2-Git-Pass')) });
      expect(await runTask(spec, hooks), lines.join('\n')).toBe('success');
      expect(lines).toContain('cloned over http');
      expect(lines.some((line) => line.startsWith(`Cloning repository ${server.url}/`))).toBe(true);
      for (const text of [
        lines.join('\n'),
        readFileSync(path.join(checkoutDirectory(hooks.workRoot, spec), '.git', 'config'), 'utf8'),
      ]) {
        expect(text).not.toContain('hunter2-Git-Pass');
        expect(text).not.toContain('deploy-user');
      }
      const wrong = buildSpec({ repository: keylessRepository(42, withCredentials('wrong')) });
      expect(await runTask(wrong, hooks)).toBe('error');
    } finally {
      await server.close();
    }
  });

  it('a pinned commit runs exactly that commit', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo first\n' });
    const first = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim();
    repo.commit({ 'run.sh': 'echo second\n' }, 'second');
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      repository: keylessRepository(3, repo.url, 'main', first),
    });
    expect(await runTask(spec, hooks)).toBe('success');
    expect(lines).toContain('first');
  });

  it('runs python scripts and local-path repositories in place', async () => {
    const repo = createGitRepository({ 'hello.py': 'import sys\nprint("python", sys.argv[1:])\n' });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      app: 'python',
      playbook: 'hello.py',
      repository: keylessRepository(4, repo.dir, ''),
      task_args: ['x'],
    });
    expect(await runTask(spec, hooks)).toBe('success');
    expect(lines).toContain("python ['x']");
  });

  it('a failing script ends in error with its exit code logged', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo about to fail\nexit 7\n' });
    const { hooks, lines } = createTaskHooks();
    expect(await runTask(buildSpec({ repository: keylessRepository(5, repo.url) }), hooks)).toBe('error');
    expect(lines).toContain('Process exited with code 7');
  });

  it('an unknown branch fails with a clear message', async () => {
    const repo = createGitRepository({ 'run.sh': 'true\n' });
    const { hooks, lines } = createTaskHooks();
    expect(await runTask(buildSpec({ repository: keylessRepository(6, repo.url, 'nope') }), hooks)).toBe('error');
    expect(lines.at(-1)).toBe(`Failed to clone repository ${repo.url}`);
  });

  it('secrets reach the script through the environment only and are masked in the output', async () => {
    const repo = createGitRepository({
      'run.sh': 'echo "token is $API_TOKEN"\nps -eo args | grep -c "[s]3cr3t-T0ken" || true\n',
    });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      repository: keylessRepository(7, repo.url),
      secret_vars: { API_TOKEN: 's3cr3t-T0ken' },
      secrets: ['s3cr3t-T0ken'],
    });
    expect(await runTask(spec, hooks)).toBe('success');
    expect(lines).toContain('token is ********');
    expect(lines.join('\n')).not.toContain('s3cr3t-T0ken');
    // No process carries the secret in its arguments (the [s] keeps grep from matching itself).
    expect(lines).toContain('0');
  });

  it('stopping a running task ends it as stopped', async () => {
    const repo = createGitRepository({ 'run.sh': 'echo started\nsleep 60\n' });
    const { hooks, lines, controller } = createTaskHooks();
    const running = runTask(buildSpec({ repository: keylessRepository(8, repo.url) }), hooks);
    await expect.poll(() => lines).toContain('started');
    controller.abort();
    expect(await running).toBe('stopped');
  });

  it('a task over its timeout is stopped and fails', async () => {
    const repo = createGitRepository({ 'run.sh': 'sleep 60\n' });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      timeout_ms: 1500,
      repository: keylessRepository(9, repo.url),
    });
    expect(await runTask(spec, hooks)).toBe('error');
    expect(lines.at(-1)).toMatch(/^Task timed out after 2 s/);
  });

  it('parallel runs of one template get private working copies that are removed afterwards', async () => {
    const repo = createGitRepository({ 'run.sh': 'pwd\n' });
    const { hooks, lines } = createTaskHooks();
    const spec = buildSpec({
      private_checkout: true,
      repository: keylessRepository(10, repo.url),
    });
    expect(await runTask(spec, hooks)).toBe('success');
    const dir = lines.find((l) => l.includes(`_task_${spec.task_id}`));
    expect(dir).toBeDefined();
    expect(() => execFileSync('test', ['-d', dir ?? ''])).toThrow();
  });
});
