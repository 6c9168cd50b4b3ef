import { resolveInside } from '../contained-path.ts';
import { createSshEnvironment } from '../credentials.ts';
import type { ExecutionPlan, ExecutorContext } from './types.ts';
import { toUnsafeYaml } from './unsafe-yaml.ts';

/**
 * A playbook path as ansible-playbook must read it, as a file: a word without a slash could be taken
 * for a collection's playbook (`namespace.collection.name`, looked up first among installed
 * collections) and one starting with - for an option.
 */
function asPlaybookPath(relative: string): string {
  return relative.includes('/') ? relative : `./${relative}`;
}

/**
 * ansible-playbook with every secret in a 0600 file: key, passwords and variables never reach argv.
 * Key logins go through the environment too: argv is in `ps`, the task log and live frames, and
 * ANSIBLE_REMOTE_USER / ANSIBLE_BECOME_USER rank where --user / --become-user do (below inventory variables).
 */
export function planAnsible(ctx: ExecutorContext): ExecutionPlan {
  const { spec, workspace } = ctx;
  const env: Record<string, string> = {
    PYTHONUNBUFFERED: '1',
    ANSIBLE_FORCE_COLOR: 'True',
    ANSIBLE_HOST_KEY_CHECKING: 'False',
    ...spec.env,
  };
  if (ctx.hostEvents) Object.assign(env, ctx.hostEvents.environment({ ...ctx.baseEnv, ...env }, ctx.checkoutDir));
  resolveInside(ctx.checkoutDir, spec.playbook, 'The playbook');
  const playbook = asPlaybookPath(spec.playbook);
  // A task's more playbooks are its own input: each must be a file inside the checkout, links followed.
  const extraPlaybooks = spec.extra_playbooks.map((word) => resolveInside(ctx.checkoutDir, word, 'The playbook'));
  const args: string[] = [];
  const secretVars: Record<string, string> = { ...spec.secret_vars };

  if (ctx.inventoryPath) args.push('-i', ctx.inventoryPath);
  const user = spec.inventory?.user_key ?? { type: 'none' as const };
  if (user.type === 'ssh') {
    const ssh = createSshEnvironment(workspace, user);
    Object.assign(env, ssh.env);
    if (ssh.keyFile) args.push('--private-key', ssh.keyFile);
  }
  if ((user.type === 'ssh' || user.type === 'login_password') && user.login) env.ANSIBLE_REMOTE_USER = user.login;
  if (user.type === 'login_password' && user.password) secretVars.ansible_password = user.password;
  const become = spec.inventory?.become_key ?? { type: 'none' as const };
  if (become.type === 'login_password') {
    if (become.login) env.ANSIBLE_BECOME_USER = become.login;
    if (become.password) secretVars.ansible_become_password = become.password;
  }
  if (spec.params.debug) args.push('-vvvv');
  if (spec.params.diff) args.push('--diff');
  if (spec.params.dry_run) args.push('--check');
  for (const vault of spec.vaults) {
    const id = vault.name || 'default';
    const source =
      vault.type === 'password'
        ? workspace.writePrivateFile('vault-password', vault.password)
        : resolveInside(ctx.checkoutDir, vault.script, 'The vault script');
    args.push('--vault-id', `${id}@${source}`);
  }
  // The server's task details (semaphore_vars) hold what users wrote: never rendered as templates.
  const { semaphore_vars: taskDetails, ...variables } = spec.extra_vars;
  args.push('--extra-vars', `@${workspace.writePrivateFile('extra-vars.json', JSON.stringify(variables))}`);
  if (taskDetails !== undefined) {
    const details = toUnsafeYaml({ semaphore_vars: taskDetails });
    args.push('--extra-vars', `@${workspace.writePrivateFile('task-details.yml', details)}`);
  }
  if (Object.keys(secretVars).length > 0)
    args.push('--extra-vars', `@${workspace.writePrivateFile('secret-vars.json', JSON.stringify(secretVars))}`);
  args.push(...spec.template_args);
  if (spec.params.limit?.length) args.push(`--limit=${spec.params.limit.join(',')}`);
  if (spec.params.tags?.length) args.push(`--tags=${spec.params.tags.join(',')}`);
  if (spec.params.skip_tags?.length) args.push(`--skip-tags=${spec.params.skip_tags.join(',')}`);
  args.push(...spec.task_args, ...extraPlaybooks, playbook);

  const galaxy = (kind: 'role' | 'collection', file: string) => ({
    command: 'ansible-galaxy',
    args: [kind, 'install', '-r', file, '--force'],
    cwd: ctx.checkoutDir,
    env: { PYTHONUNBUFFERED: '1', ANSIBLE_FORCE_COLOR: 'True' },
  });
  return {
    kind: 'single',
    before: [
      ...ctx.requirements.collections.map((f) => galaxy('collection', f)),
      ...ctx.requirements.roles.map((f) => galaxy('role', f)),
    ],
    run: { command: spec.app_path || 'ansible-playbook', args: [...spec.app_args, ...args], cwd: ctx.checkoutDir, env },
  };
}
