import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ProjectBackupInput } from '@gantry/contract';
import { runProcess } from '@gantry/runner';
import { SERVER_PACKAGE_ROOT } from '../../package-root.ts';

/** The demo scripts shipped with Gantry; every demo project gets its own git copy of them. */
const DEMO_SOURCE_DIR = path.join(SERVER_PACKAGE_ROOT, 'demo/repository');

const GIT_TIMEOUT_MS = 30_000;

/** Under the data directory: the demo projects' repositories, removed with their project. */
export const DEMO_REPOSITORIES_DIR = 'demo-repositories';

/**
 * Copies the demo scripts into the data directory and commits them to a new local git repository,
 * so the demo templates run with the ordinary git code and without network access.
 */
export async function createDemoRepository(dataDir: string, baseEnv: Record<string, string>): Promise<string> {
  const dir = path.join(dataDir, DEMO_REPOSITORIES_DIR, `demo-${Date.now()}-${randomBytes(4).toString('hex')}`);
  mkdirSync(path.dirname(dir), { recursive: true });
  cpSync(DEMO_SOURCE_DIR, dir, { recursive: true });
  const env = {
    ...baseEnv,
    GIT_AUTHOR_NAME: 'Gantry',
    GIT_AUTHOR_EMAIL: 'gantry@localhost',
    GIT_COMMITTER_NAME: 'Gantry',
    GIT_COMMITTER_EMAIL: 'gantry@localhost',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const output: string[] = [];
  const git = async (...args: string[]) => {
    const result = await runProcess({
      command: 'git',
      args,
      cwd: dir,
      env,
      timeoutMs: GIT_TIMEOUT_MS,
      onLine: (line) => output.push(line),
    });
    if (result.outcome !== 'exited' || result.exitCode !== 0) {
      throw new Error(
        `git ${args[0] ?? ''} failed while creating the demo repository: ${result.error ?? output.join('\n')}`,
      );
    }
  };
  try {
    await git('init', '-q');
    // Older git has no `init -b`; pointing HEAD at main before the first commit names the branch.
    await git('symbolic-ref', 'HEAD', 'refs/heads/main');
    await git('add', '-A');
    await git('-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'Gantry demo project');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/**
 * The demo project as a backup document: restoring it creates every object in one transaction.
 * Its templates run on the Gantry host itself: bash, python and an Ansible playbook against localhost.
 */
export function buildDemoBackup(name: string, repositoryDir: string): ProjectBackupInput {
  return {
    meta: { name, alert: false, max_parallel_tasks: 0, type: '' },
    keys: [{ name: 'None', type: 'none' }],
    repositories: [{ name: 'Demo scripts', git_url: repositoryDir, git_branch: 'main', ssh_key: 'None' }],
    environments: [
      { name: 'Empty', json: '{}', env: '{}' },
      {
        name: 'Demo variables',
        json: JSON.stringify({ greeting: 'Hello' }),
        env: JSON.stringify({ DEMO_STAGE: 'demo' }),
      },
    ],
    inventories: [
      {
        name: 'Localhost',
        type: 'static-yaml',
        // The playbook runs with the python that runs Ansible, whatever its path on this machine.
        inventory: [
          'all:',
          '  hosts:',
          '    localhost:',
          '      ansible_connection: local',
          '      ansible_python_interpreter: "{{ ansible_playbook_python }}"',
          '',
        ].join('\n'),
        ssh_key: 'None',
      },
    ],
    views: [],
    templates: [
      {
        name: 'Bash: hello',
        app: 'bash',
        playbook: 'hello.sh',
        description: 'Runs hello.sh from the demo repository.',
        repository: 'Demo scripts',
        environment: 'Demo variables',
      },
      {
        name: 'Python: system info',
        app: 'python',
        playbook: 'info.py',
        description: 'Runs info.py from the demo repository.',
        repository: 'Demo scripts',
        environment: 'Demo variables',
      },
      {
        name: 'Ansible: ping localhost',
        app: 'ansible',
        playbook: 'ping.yml',
        description: 'Runs the ping.yml playbook against the Gantry host itself.',
        repository: 'Demo scripts',
        inventory: 'Localhost',
        environment: 'Demo variables',
      },
    ],
    schedules: [
      { name: 'Nightly hello', cron_format: '0 3 * * *', active: false, template: 'Bash: hello', task_params: {} },
    ],
  };
}
