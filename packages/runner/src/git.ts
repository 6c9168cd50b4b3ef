import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { findUrlCredentials, type KeyMaterial, type TaskSpec } from '@gantry/contract';
import { resolveInside } from './contained-path.ts';
import { createGitAskpassEnvironment, createSshEnvironment } from './credentials.ts';
import { createStepRunner, type StepRunner } from './step-runner.ts';
import { TaskFailure } from './task-failure.ts';
import { checkoutDirectory, createTaskWorkspace, projectCheckoutsDirectory, type TaskWorkspace } from './workspace.ts';

export interface Checkout {
  dir: string;
  commitHash: string | null;
  commitMessage: string;
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The remote as git is given it: credentials written into an http(s) URL are taken out of it and
 * answered through askpass like a login key's, so they reach no command line (`ps`), log line or
 * checkout's .git/config.
 */
function remoteOf(repository: TaskSpec['repository']): { url: string; key: KeyMaterial } {
  const credentials = findUrlCredentials(repository.url);
  if (!credentials) return { url: repository.url, key: repository.key };
  // Over ssh or git:// a password in the URL is never used: it is only dropped.
  if (!/^https?:/i.test(repository.url)) return { url: credentials.url, key: repository.key };
  return {
    url: credentials.url,
    key: { type: 'login_password', login: credentials.username, password: credentials.password },
  };
}

/** The `host[:port]` git names when it asks for the credentials of `url` (empty when it is no URL). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Environment for git: its credentials come from 0600 files, unknown hosts are learned once per installation. */
function createGitEnvironment(
  remote: { url: string; key: KeyMaterial },
  workspace: TaskWorkspace,
  workRoot: string,
): Record<string, string> {
  const { key } = remote;
  const ssh = createSshEnvironment(workspace, key);
  const knownHosts = path.join(workRoot, 'known_hosts');
  const sshCommand = ['ssh', '-o', 'StrictHostKeyChecking=accept-new', '-o', `UserKnownHostsFile=${quote(knownHosts)}`];
  if (ssh.keyFile) sshCommand.push('-o', 'IdentitiesOnly=yes', '-i', quote(ssh.keyFile));
  return {
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: sshCommand.join(' '),
    ...ssh.env,
    ...createGitAskpassEnvironment(workspace, key, hostOf(remote.url)),
  };
}

/**
 * Brings the template's working copy to the head of the branch (or the pinned commit): fetch and
 * hard reset when a usable copy exists, a fresh clone otherwise. Local paths are used in place.
 */
export async function prepareRepository(
  spec: TaskSpec,
  workspace: TaskWorkspace,
  workRoot: string,
  steps: StepRunner,
): Promise<Checkout> {
  const remote = remoteOf(spec.repository);
  const { url } = remote;
  if (url.startsWith('/')) {
    if (!existsSync(url)) throw new TaskFailure(`Repository path ${url} does not exist`);
    return { dir: url, ...(await readCommit(url, steps, {})) };
  }
  const env = createGitEnvironment(remote, workspace, workRoot);
  const base = projectCheckoutsDirectory(workRoot, spec.project_id);
  mkdirSync(base, { recursive: true });
  // The working copy is removed and cloned again below: a link planted in its place must not redirect that.
  const dir = resolveInside(base, path.basename(checkoutDirectory(workRoot, spec)), 'The checkout directory');
  const branch = spec.repository.branch;
  const git = (args: string[], cwd: string, quiet = false) => steps.run({ command: 'git', args, cwd, env, quiet });

  let updated = false;
  if (existsSync(path.join(dir, '.git'))) {
    steps.log(`Updating repository ${url} (${branch})`);
    updated =
      (await git(['remote', 'set-url', 'origin', url], dir, true)) &&
      (await git(['fetch', '--prune', '--', 'origin', branch], dir)) &&
      // Untracked files stay: local terraform state and installed roles live there between runs.
      (await git(['checkout', '-f', '-B', branch, 'FETCH_HEAD'], dir, true)) &&
      (await git(['submodule', 'update', '--init', '--recursive'], dir));
    if (!updated) steps.log('The working copy could not be updated; cloning it again');
  }
  if (!updated) {
    rmSync(dir, { recursive: true, force: true });
    steps.log(`Cloning repository ${url} (${branch})`);
    const cloned = await git(['clone', '--recurse-submodules', '--branch', branch, '--', url, dir], path.dirname(dir));
    if (!cloned) throw new TaskFailure(`Failed to clone repository ${url}`);
  }
  if (spec.repository.commit_hash) {
    if (!(await git(['checkout', '-f', spec.repository.commit_hash], dir))) {
      throw new TaskFailure(`Commit ${spec.repository.commit_hash} not found in ${url}`);
    }
  }
  return { dir, ...(await readCommit(dir, steps, env)) };
}

async function readCommit(dir: string, steps: StepRunner, env: Record<string, string>) {
  if (!existsSync(path.join(dir, '.git'))) return { commitHash: null, commitMessage: '' };
  const output: string[] = [];
  const ok = await steps.run({
    command: 'git',
    args: ['log', '-1', '--format=%H%n%s'],
    cwd: dir,
    env,
    quiet: true,
    capture: output,
  });
  if (!ok || output.length === 0) return { commitHash: null, commitMessage: '' };
  return { commitHash: output[0] ?? null, commitMessage: (output[1] ?? '').slice(0, 255) };
}

/**
 * The commit at the head of a repository branch, for "run on new commit" schedules: `git ls-remote`
 * with the repository's credentials, or the local checkout's HEAD for a local path.
 */
export async function readRemoteHead(
  repository: TaskSpec['repository'],
  options: { workRoot: string; baseEnv: Record<string, string>; checkId: number; timeoutMs?: number },
): Promise<string | null> {
  const workspace = createTaskWorkspace(options.workRoot, options.checkId, 'checks');
  const output: string[] = [];
  const remote = remoteOf(repository);
  const local = remote.url.startsWith('/');
  const steps = createStepRunner({
    baseEnv: options.baseEnv,
    signal: new AbortController().signal,
    forceKill: () => false,
    deadline: Date.now() + (options.timeoutMs ?? 60_000),
    redact: (line) => line,
    emit: () => undefined,
  });
  try {
    const env = local ? {} : createGitEnvironment(remote, workspace, options.workRoot);
    const args = local
      ? ['-C', remote.url, 'rev-parse', 'HEAD']
      : ['ls-remote', '--', remote.url, `refs/heads/${repository.branch}`];
    const ok = await steps.run({ command: 'git', args, cwd: options.workRoot, env, quiet: true, capture: output });
    const hash = output[0]?.split(/\s+/)[0];
    return ok && hash ? hash : null;
  } finally {
    workspace.cleanup();
  }
}
