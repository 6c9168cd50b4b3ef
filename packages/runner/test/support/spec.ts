import type { TaskSpec } from '@gantry/contract';

let nextTaskId = 1000;

/** The spec of a repository the task reaches without a key: `url` at `branch`, its head unless `commitHash`. */
export function keylessRepository(
  id: number,
  url: string,
  branch = 'main',
  commitHash: string | null = null,
): TaskSpec['repository'] {
  return { id, url, branch, key: { type: 'none' }, commit_hash: commitHash };
}

/** A complete task spec with harmless defaults; tests override what they exercise. */
export function buildSpec(overrides: Partial<TaskSpec>): TaskSpec {
  nextTaskId += 1;
  return {
    task_id: nextTaskId,
    project_id: 1,
    template_id: 1,
    app: 'bash',
    app_path: '',
    app_args: [],
    playbook: 'run.sh',
    repository: keylessRepository(1, ''),
    private_checkout: false,
    inventory: null,
    extra_vars: {},
    secret_vars: {},
    env: {},
    vaults: [],
    template_args: [],
    task_args: [],
    extra_playbooks: [],
    params: {},
    workspace: 'default',
    timeout_ms: 0,
    secrets: [],
    ...overrides,
  };
}
