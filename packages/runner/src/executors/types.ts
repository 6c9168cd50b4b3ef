import type { TaskSpec } from '@gantry/contract';
import type { HostEvents } from '../host-results.ts';
import type { ToolOutputForm } from '../task-outputs.ts';
import type { TaskWorkspace } from '../workspace.ts';

export interface PlannedCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** A probe run quietly first; when it fails, this command is skipped with `skipMessage` in the log. */
  onlyIf?: { probe: Omit<PlannedCommand, 'onlyIf'>; skipMessage: string };
}

/** How to run a task: one command, or a plan that may wait for confirmation before it applies. */
export type ExecutionPlan =
  | { kind: 'single'; before: PlannedCommand[]; run: PlannedCommand }
  | {
      kind: 'plan-apply';
      before: PlannedCommand[];
      plan: PlannedCommand;
      /** Exit code of the plan that means "there are changes"; with null every successful plan has changes. */
      changesExitCode: number | null;
      apply: PlannedCommand;
      /** Prints the saved plan as JSON (terraform's `show -json`), for its summary; null where there is none. */
      summary: PlannedCommand | null;
      planOnly: boolean;
      autoApprove: boolean;
      /** Prints the tool's outputs as JSON once the task succeeded, run quietly; absent where there are none. */
      outputs?: ToolOutputs;
    };

/**
 * The command that prints a tool's outputs and the form it prints them in: terraform's `output -json`
 * ({name: {value, sensitive}}) or pulumi's `stack output --json` ({name: value}, secrets as "[secret]").
 */
interface ToolOutputs {
  command: PlannedCommand;
  form: ToolOutputForm;
}

export interface ExecutorContext {
  spec: TaskSpec;
  checkoutDir: string;
  workspace: Pick<TaskWorkspace, 'writePrivateFile'>;
  /** Absolute path of the materialised inventory, for apps that use one. */
  inventoryPath: string | null;
  /** Requirement files found in the checkout (ansible-galaxy). */
  requirements: { roles: string[]; collections: string[] };
  /** Where ansible's per-host results go (Gantry's callback plugin); null for other apps. */
  hostEvents: HostEvents | null;
  /** The environment every process of the task starts from (HOME, an ANSIBLE_CONFIG of the installation). */
  baseEnv: Record<string, string>;
}

/** String form of a variable value for KEY=VALUE and TF_VAR_ use: strings as they are, the rest as JSON. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
