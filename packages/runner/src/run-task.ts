import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { TaskHostReport, TaskOutputs, TaskPlan, TaskSpec } from '@gantry/contract';
import { resolveInside } from './contained-path.ts';
import { planExecution, type ExecutionPlan, type PlannedCommand } from './executors/index.ts';
import { prepareRepository } from './git.ts';
import { createHostEvents, readHostReport, type HostEvents } from './host-results.ts';
import { summarizePlan } from './plan-summary.ts';
import { createRedactor } from './redact.ts';
import { TaskStopped, TaskTimedOut, createStepRunner, type StepRunner } from './step-runner.ts';
import { TaskFailure } from './task-failure.ts';
import {
  OUTPUTS_VARIABLE,
  createOutputCollector,
  createOutputsFile,
  readOutputsFile,
  type OutputCollector,
} from './task-outputs.ts';
import { checkoutDirectory, createTaskWorkspace, type TaskWorkspace } from './workspace.ts';

/** How a task ended; 'rejected' when the user rejected its plan, so nothing was applied. */
export type TaskOutcome = 'success' | 'error' | 'stopped' | 'rejected';

/** The log line of a task whose plan was rejected, wherever it ran. */
export const PLAN_REJECTED_LINE = 'The plan was rejected.';

export interface RunTaskHooks {
  /** Where checkouts and per-task private files live. */
  workRoot: string;
  /** The allowlisted environment every process starts from (PATH, HOME, locale). */
  baseEnv: Record<string, string>;
  signal: AbortSignal;
  /** True once the user asked for a force stop: kill at once instead of SIGTERM first. */
  forceKill(): boolean;
  killGraceMs?: number;
  /** One redacted output line. */
  onLine(line: string): void;
  onCommit(hash: string, message: string): void;
  onStatus(status: 'running' | 'waiting_confirmation'): void;
  /** Resolves true when the plan is confirmed, false when rejected. */
  waitForConfirmation(): Promise<boolean>;
  /** An ansible task's results per host (secrets masked), once ansible-playbook has ended; awaited. */
  onHosts?(report: TaskHostReport): Promise<void>;
  /** A terraform/OpenTofu plan's summary (secrets masked), before it waits for confirmation; awaited. */
  onPlan?(plan: TaskPlan): Promise<void>;
  /** The outputs the task published (secrets masked, bounded), once it has ended; awaited. */
  onOutputs?(outputs: TaskOutputs): Promise<void>;
  /** Each process of the task as it starts, so a later server can find it if this one dies. */
  onProcessStart?(pid: number): void;
}

function materializeInventory(spec: TaskSpec, checkoutDir: string, workspace: TaskWorkspace): string | null {
  const inventory = spec.inventory;
  if (!inventory) return null;
  switch (inventory.type) {
    case 'static':
      return workspace.writePrivateFile('inventory.ini', inventory.content);
    case 'static-yaml':
      return workspace.writePrivateFile('inventory.yml', inventory.content);
    case 'file':
      return resolveInside(checkoutDir, inventory.content, 'The inventory file');
    default:
      return null;
  }
}

/**
 * ansible-galaxy requirement files, looked up next to the playbook first, then at the repository
 * root; each must stay inside the repository once links are followed.
 */
function findRequirements(spec: TaskSpec, checkoutDir: string) {
  if (spec.app !== 'ansible') return { roles: [], collections: [] };
  resolveInside(checkoutDir, spec.playbook, 'The playbook');
  const playbookDir = path.dirname(path.join(spec.playbook));
  const find = (kind: string) =>
    [
      ...new Set(
        [playbookDir, '.'].flatMap((dir) => [
          path.join(dir, kind, 'requirements.yml'),
          path.join(dir, 'requirements.yml'),
        ]),
      ),
    ]
      .map((relative) => resolveInside(checkoutDir, relative, 'The requirements file'))
      .filter((file) => existsSync(file));
  return { collections: find('collections'), roles: find('roles') };
}

async function runCommand(steps: StepRunner, command: PlannedCommand): Promise<number> {
  return steps.exec({ command: command.command, args: command.args, cwd: command.cwd, env: command.env });
}

async function execute(plan: ExecutionPlan, steps: StepRunner, hooks: RunTaskHooks): Promise<TaskOutcome> {
  for (const command of plan.before) {
    if (command.onlyIf && (await steps.exec({ ...command.onlyIf.probe, quiet: true })) !== 0) {
      steps.log(command.onlyIf.skipMessage);
      continue;
    }
    const code = await runCommand(steps, command);
    if (code !== 0) {
      steps.log(`${command.command} ${command.args[0] ?? ''} failed with exit code ${code}`);
      return 'error';
    }
  }
  if (plan.kind === 'single') {
    const code = await runCommand(steps, plan.run);
    if (code !== 0) steps.log(`Process exited with code ${code}`);
    return code === 0 ? 'success' : 'error';
  }
  const planCode = await runCommand(steps, plan.plan);
  const hasChanges = plan.changesExitCode === null ? planCode === 0 : planCode === plan.changesExitCode;
  if (!hasChanges && planCode !== 0) {
    steps.log(`Plan failed with exit code ${planCode}`);
    return 'error';
  }
  if (!hasChanges) {
    steps.log('No changes.');
    return 'success';
  }
  if (plan.summary && hooks.onPlan) await deliverPlan(plan.summary, steps, hooks.onPlan);
  if (plan.planOnly) return 'success';
  if (!plan.autoApprove) {
    hooks.onStatus('waiting_confirmation');
    steps.log('Waiting for confirmation to apply the plan.');
    if (!(await hooks.waitForConfirmation())) {
      steps.log(PLAN_REJECTED_LINE);
      return 'rejected';
    }
    hooks.onStatus('running');
  }
  const applyCode = await runCommand(steps, plan.apply);
  if (applyCode !== 0) steps.log(`Apply failed with exit code ${applyCode}`);
  return applyCode === 0 ? 'success' : 'error';
}

/** Reads the saved plan's summary quietly; a plan that cannot be read is said in the log, and the task goes on. */
async function deliverPlan(
  command: PlannedCommand,
  steps: StepRunner,
  onPlan: (plan: TaskPlan) => Promise<void>,
): Promise<void> {
  const stdout: string[] = [];
  const code = await steps.exec({ ...command, quiet: true, stdout });
  const summary = code === 0 ? summarizePlan(stdout.join('')) : undefined;
  if (!summary) {
    steps.log(
      code === 0
        ? "Could not read the plan's summary: `show -json` printed no plan."
        : `Could not read the plan's summary: \`show -json\` exited with code ${code}.`,
    );
    return;
  }
  try {
    await onPlan(summary);
  } catch (error) {
    steps.log(`Could not record the plan's summary: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The tool's own outputs after a successful run (terraform, pulumi), read quietly into the collector. */
async function readToolOutputs(plan: ExecutionPlan, steps: StepRunner, outputs: OutputCollector): Promise<void> {
  if (plan.kind !== 'plan-apply' || !plan.outputs || plan.planOnly) return;
  const { command, form } = plan.outputs;
  // Standard output only, whole: a long line comes back as one, and stderr's warnings stay out of the JSON.
  const stdout: string[] = [];
  const code = await steps.exec({ ...command, quiet: true, stdout });
  if (code === 0) outputs.addToolOutputs(stdout.join(''), form);
  else outputs.problem(`${command.command} output failed with exit code ${code}; its outputs are not published`);
}

async function deliverOutputs(
  file: string | undefined,
  outputs: OutputCollector,
  toolOutputs: OutputCollector,
  onOutputs: (outputs: TaskOutputs) => Promise<void>,
  steps: StepRunner,
): Promise<void> {
  try {
    if (file) readOutputsFile(file, outputs);
    for (const [name, value] of Object.entries(toolOutputs.result())) outputs.add(name, value, 'Tool output');
    for (const line of [...outputs.problemLines(), ...toolOutputs.problemLines()]) steps.log(line);
    const published = outputs.result();
    if (Object.keys(published).length === 0) return;
    steps.log(`Outputs: ${Object.keys(published).join(', ')}`);
    await onOutputs(published);
  } catch (error) {
    steps.log(`Could not record the outputs: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function deliverHosts(
  file: string,
  redact: (text: string) => string,
  onHosts: (report: TaskHostReport) => Promise<void>,
  steps: StepRunner,
): Promise<void> {
  try {
    const report = await readHostReport(file, redact);
    if (report) await onHosts(report);
  } catch (error) {
    steps.log(`Could not record the results per host: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Runs one task to its end: repository, inventory, the app's commands; never throws. */
export async function runTask(spec: TaskSpec, hooks: RunTaskHooks): Promise<TaskOutcome> {
  const redact = createRedactor(spec.secrets);
  // Every process of the task carries its id for scripts to use; orphans are found by the process mark the caller puts in baseEnv.
  const baseEnv: Record<string, string> = { ...hooks.baseEnv, GANTRY_TASK_ID: String(spec.task_id) };
  const steps = createStepRunner({
    // Read at each process start: the outputs file is named in it once the workspace exists.
    baseEnv,
    ...(hooks.onProcessStart ? { onProcessStart: hooks.onProcessStart } : {}),
    signal: hooks.signal,
    forceKill: hooks.forceKill,
    ...(spec.timeout_ms > 0 ? { deadline: Date.now() + spec.timeout_ms } : {}),
    ...(hooks.killGraceMs !== undefined ? { killGraceMs: hooks.killGraceMs } : {}),
    redact,
    emit: hooks.onLine,
  });
  let workspace: TaskWorkspace | undefined;
  let hostEvents: HostEvents | null = null;
  let outputsFile: string | undefined;
  // The file's and set_stats' outputs, and the tool's (terraform), which come last and win on a shared name.
  const outputs = createOutputCollector(redact);
  const toolOutputs = createOutputCollector(redact);
  try {
    workspace = createTaskWorkspace(hooks.workRoot, spec.task_id);
    if (hooks.onOutputs) {
      outputsFile = createOutputsFile(workspace);
      baseEnv[OUTPUTS_VARIABLE] = outputsFile;
    }
    if (spec.app === 'ansible' && hooks.onHosts) hostEvents = createHostEvents(workspace);
    const checkout = await prepareRepository(spec, workspace, hooks.workRoot, steps);
    if (checkout.commitHash) hooks.onCommit(checkout.commitHash, checkout.commitMessage);
    const plan = planExecution({
      spec,
      checkoutDir: checkout.dir,
      workspace,
      inventoryPath: materializeInventory(spec, checkout.dir, workspace),
      requirements: findRequirements(spec, checkout.dir),
      hostEvents,
      baseEnv: hooks.baseEnv,
    });
    const outcome = await execute(plan, steps, hooks);
    if (outcome === 'success' && hooks.onOutputs) await readToolOutputs(plan, steps, toolOutputs);
    return outcome;
  } catch (error) {
    if (error instanceof TaskStopped) return 'stopped';
    if (error instanceof TaskTimedOut) {
      steps.log(`Task timed out after ${Math.round(spec.timeout_ms / 1000)} s and was stopped.`);
      return 'error';
    }
    steps.log(
      error instanceof TaskFailure
        ? error.message
        : `Failed to run task: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 'error';
  } finally {
    // A stopped or failed run reports the hosts it got to.
    if (hostEvents && hooks.onHosts) await deliverHosts(hostEvents.file, redact, hooks.onHosts, steps);
    if (hooks.onOutputs) await deliverOutputs(outputsFile, outputs, toolOutputs, hooks.onOutputs, steps);
    workspace?.cleanup();
    if (spec.private_checkout) rmSync(checkoutDirectory(hooks.workRoot, spec), { recursive: true, force: true });
  }
}
