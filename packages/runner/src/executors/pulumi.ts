import { resolveInside } from '../contained-path.ts';
import type { ExecutionPlan, ExecutorContext } from './types.ts';

/**
 * pulumi: preview, then `up` once confirmed or auto-approved, with the variable group as environment;
 * after a successful run the stack's outputs (`stack output --json`, secrets left masked by pulumi).
 */
export function planPulumi(ctx: ExecutorContext): ExecutionPlan {
  const { spec } = ctx;
  const cwd = resolveInside(ctx.checkoutDir, spec.playbook, 'The working directory');
  const env = { PULUMI_SKIP_UPDATE_CHECK: 'true', ...spec.env, ...spec.secret_vars };
  const stack = spec.workspace && spec.workspace !== 'default' ? ['--stack', spec.workspace] : [];
  const run = (...args: string[]) => ({
    command: spec.app_path || 'pulumi',
    args: [...spec.app_args, ...args, ...stack],
    cwd,
    env,
  });
  const destroy = spec.params.destroy === true;
  return {
    kind: 'plan-apply',
    before: [],
    plan: run(
      'preview',
      '--non-interactive',
      ...(destroy ? ['--destroy'] : []),
      ...spec.template_args,
      ...spec.task_args,
    ),
    changesExitCode: null,
    apply: run(
      destroy ? 'destroy' : 'up',
      '--yes',
      '--non-interactive',
      '--skip-preview',
      ...spec.template_args,
      ...spec.task_args,
    ),
    summary: null,
    planOnly: spec.params.plan === true,
    autoApprove: spec.params.auto_approve === true,
    outputs: { command: run('stack', 'output', '--json'), form: 'pulumi' },
  };
}
