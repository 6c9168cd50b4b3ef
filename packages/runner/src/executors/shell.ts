import { resolveInside } from '../contained-path.ts';
import type { ExecutionPlan, ExecutorContext } from './types.ts';
import { formatValue } from './types.ts';

const INTERPRETERS: Record<string, { command: string; args: string[] }> = {
  bash: { command: 'bash', args: [] },
  python: { command: 'python3', args: [] },
  powershell: { command: 'pwsh', args: ['-NoLogo', '-NonInteractive', '-File'] },
};

/**
 * A script from the repository run by its interpreter: template and task arguments, then the extra
 * variables as KEY=VALUE. Secrets go to the environment only, never to argv where `ps` shows them.
 */
export function planShell(ctx: ExecutorContext): ExecutionPlan {
  const { spec } = ctx;
  resolveInside(ctx.checkoutDir, spec.playbook, 'The script');
  // A name starting with - would be read as an option of the interpreter.
  const script = spec.playbook.startsWith('-') ? `./${spec.playbook}` : spec.playbook;
  const interpreter = INTERPRETERS[spec.app] ?? { command: spec.app, args: [] };
  // A custom path moves the interpreter, it does not change how a script is handed to it.
  const command = spec.app_path || interpreter.command;
  const leading = [...interpreter.args, ...spec.app_args];
  const variables = Object.entries(spec.extra_vars)
    .filter(([key]) => key !== 'semaphore_vars' && key !== 'gantry')
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  return {
    kind: 'single',
    before: [],
    run: {
      command,
      args: [...leading, script, ...spec.template_args, ...variables, ...spec.task_args],
      cwd: ctx.checkoutDir,
      env: { PYTHONUNBUFFERED: '1', ...spec.env, ...spec.secret_vars },
    },
  };
}
