import { resolveInside } from '../contained-path.ts';
import { createSshEnvironment } from '../credentials.ts';
import type { ExecutionPlan, ExecutorContext } from './types.ts';
import { formatValue } from './types.ts';

/**
 * terraform/tofu: init, workspace, a saved plan (-detailed-exitcode tells whether anything
 * changes), then apply of exactly that plan once confirmed or auto-approved. Variables reach the
 * process as TF_VAR_ environment variables, never as -var arguments.
 */
export function planTerraform(ctx: ExecutorContext): ExecutionPlan {
  const { spec, workspace } = ctx;
  const binary = spec.app_path || spec.app;
  const cwd = resolveInside(ctx.checkoutDir, spec.playbook, 'The working directory');
  const tfVars: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.extra_vars)) tfVars[`TF_VAR_${key}`] = formatValue(value);
  for (const [key, value] of Object.entries(spec.secret_vars)) tfVars[`TF_VAR_${key}`] = value;
  const moduleKey = createSshEnvironment(workspace, spec.inventory?.user_key ?? { type: 'none' });
  const gitSsh: Record<string, string> = moduleKey.keyFile
    ? { GIT_SSH_COMMAND: `ssh -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new -i '${moduleKey.keyFile}'` }
    : {};
  const env: Record<string, string> = {
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    GIT_TERMINAL_PROMPT: '0',
    ...moduleKey.env,
    ...gitSsh,
    ...spec.env,
    ...tfVars,
  };
  const run = (...args: string[]) => ({ command: binary, args: [...spec.app_args, ...args], cwd, env });
  // An empty file to start with; terraform writes the saved plan over it.
  const planFile = workspace.writePrivateFile('tfplan', '');

  const init = ['init', '-input=false'];
  if (spec.params.upgrade) init.push('-upgrade');
  if (spec.params.reconfigure) init.push('-reconfigure');
  const plan = ['plan', '-input=false', '-detailed-exitcode', `-out=${planFile}`];
  if (spec.params.destroy) plan.push('-destroy');
  plan.push(...spec.template_args, ...spec.task_args);

  return {
    kind: 'plan-apply',
    before: [
      run(...init),
      {
        ...run('workspace', 'select', '-or-create=true', spec.workspace || 'default'),
        // Some backends (the http one among them) have no workspaces: their state is told apart by address instead.
        onlyIf: {
          probe: run('workspace', 'list'),
          skipMessage: 'The backend does not support workspaces; staying in the default workspace.',
        },
      },
    ],
    plan: run(...plan),
    changesExitCode: 2,
    apply: run('apply', '-input=false', planFile),
    summary: run('show', '-json', planFile),
    planOnly: spec.params.plan === true,
    autoApprove: spec.params.auto_approve === true,
    outputs: { command: run('output', '-json'), form: 'terraform' },
  };
}
