import { planAnsible } from './ansible.ts';
import { planPulumi } from './pulumi.ts';
import { planShell } from './shell.ts';
import { planTerraform } from './terraform.ts';
import type { ExecutionPlan, ExecutorContext } from './types.ts';

/** Picks the executor of an app; any app without its own (bash, python, powershell, custom) runs as a script. */
export function planExecution(ctx: ExecutorContext): ExecutionPlan {
  switch (ctx.spec.app) {
    case 'ansible':
      return planAnsible(ctx);
    case 'terraform':
    case 'tofu':
      return planTerraform(ctx);
    case 'pulumi':
      return planPulumi(ctx);
    default:
      return planShell(ctx);
  }
}

export type { ExecutionPlan, ExecutorContext, PlannedCommand } from './types.ts';
