import type { TaskSpec } from '@gantry/contract';

let nextTaskId = 1000;

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
    repository: { id: 1, url: '', branch: 'main', key: { type: 'none' }, commit_hash: null },
    private_checkout: false,
    inventory: null,
    extra_vars: {},
    secret_vars: {},
    env: {},
    vaults: [],
    template_args: [],
    task_args: [],
    params: {},
    workspace: 'default',
    timeout_ms: 0,
    secrets: [],
    ...overrides,
  };
}
