import { TASK_MARK_VARIABLE } from './process-sweep.ts';
import type { Redactor } from './redact.ts';
import { runProcess } from './run-process.ts';

export class TaskStopped extends Error {}
export class TaskTimedOut extends Error {}

export interface StepOptions {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Keep the step's output out of the task log (it is still redacted if captured). */
  quiet?: boolean;
  /** Receives the redacted output lines. */
  capture?: string[];
  /** Receives the redacted standard output as text, line ends kept (long lines are not cut apart). */
  stdout?: string[];
}

export interface StepRunnerOptions {
  /** The allowlisted environment every process starts from. */
  baseEnv: Record<string, string>;
  signal: AbortSignal;
  forceKill(): boolean;
  /** Epoch milliseconds after which the task is out of time, if it has a timeout. */
  deadline?: number;
  killGraceMs?: number;
  /** A plain function for steps that know no secrets (git probes); a Redactor also sees across cut lines. */
  redact: Redactor | ((line: string) => string);
  emit(line: string): void;
  onProcessStart?(pid: number): void;
}

/**
 * Redacts one output stream whose long lines arrive cut in MAX_LINE_LENGTH pieces. A secret may
 * straddle a cut, so the tail of a cut piece that could begin one waits for the next piece.
 */
function createCutLineRedactor(redact: StepRunnerOptions['redact']) {
  let pending = '';
  return {
    take(line: string, cut: boolean): string | undefined {
      const text = pending + line;
      pending = '';
      if (!cut || !('settle' in redact)) return redact(text);
      const { settled, rest } = redact.settle(text);
      pending = rest;
      return settled || undefined;
    },
    flush(): string | undefined {
      const text = pending;
      pending = '';
      return text ? redact(text) : undefined;
    },
  };
}

/**
 * A step's environment: the base one with the step's own variables (the template's environment among
 * them) over it, except the process mark. A stop, a timeout and recovery kill by that mark: taken
 * from a task's variables, it would aim them at another task's processes, or hide these ones.
 */
function stepEnvironment(
  baseEnv: Record<string, string>,
  stepEnv: Record<string, string> | undefined,
): Record<string, string> {
  const env = { ...baseEnv, ...stepEnv };
  const mark = baseEnv[TASK_MARK_VARIABLE];
  if (mark === undefined) delete env[TASK_MARK_VARIABLE];
  else env[TASK_MARK_VARIABLE] = mark;
  return env;
}

/** Runs the processes of one task: shared environment, redaction, stop and timeout for every step. */
export function createStepRunner(options: StepRunnerOptions) {
  async function exec(step: StepOptions): Promise<number> {
    if (!step.quiet) options.emit(options.redact(`$ ${[step.command, ...step.args].join(' ')}`));
    const deliver = (clean: string | undefined, stream: 'stdout' | 'stderr', lineEnds: boolean) => {
      if (stream === 'stdout') step.stdout?.push(clean ?? '', lineEnds ? '\n' : '');
      if (clean === undefined) return;
      step.capture?.push(clean);
      if (!step.quiet) options.emit(clean);
    };
    const cuts = { stdout: createCutLineRedactor(options.redact), stderr: createCutLineRedactor(options.redact) };
    const remaining = options.deadline === undefined ? undefined : options.deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) throw new TaskTimedOut();
    const result = await runProcess({
      command: step.command,
      args: step.args,
      cwd: step.cwd,
      env: stepEnvironment(options.baseEnv, step.env),
      signal: options.signal,
      forceKill: options.forceKill,
      ...(remaining !== undefined ? { timeoutMs: remaining } : {}),
      ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
      ...(options.onProcessStart ? { onStart: options.onProcessStart } : {}),
      onLine: (line, stream, cut) => deliver(cuts[stream].take(line, cut), stream, !cut),
    });
    deliver(cuts.stdout.flush(), 'stdout', false);
    deliver(cuts.stderr.flush(), 'stderr', false);
    if (result.outcome === 'cancelled') throw new TaskStopped();
    if (result.outcome === 'timed_out') throw new TaskTimedOut();
    if (result.outcome === 'spawn_failed') {
      options.emit(options.redact(`Could not start ${step.command}: ${result.error ?? 'unknown error'}`));
      return 127;
    }
    return result.exitCode ?? 1;
  }

  return {
    log(line: string): void {
      options.emit(options.redact(line));
    },
    exec,
    async run(step: StepOptions): Promise<boolean> {
      return (await exec(step)) === 0;
    },
  };
}

export type StepRunner = ReturnType<typeof createStepRunner>;
