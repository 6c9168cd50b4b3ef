import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type ProcessOutcome = 'exited' | 'timed_out' | 'cancelled' | 'spawn_failed';

export interface ProcessResult {
  outcome: ProcessOutcome;
  /** Exit code when the process exited by itself; null when it was killed or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why the process could not start, for spawn_failed. */
  error?: string;
}

export interface RunProcessOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment of the child; nothing is inherited. */
  env: Record<string, string>;
  /** Aborting stops the whole process group: SIGTERM, then SIGKILL after killGraceMs. */
  signal?: AbortSignal;
  /** Ask for an immediate SIGKILL instead of the graceful stop. */
  forceKill?: () => boolean;
  timeoutMs?: number;
  killGraceMs?: number;
  /** Called for every output line, stdout and stderr alike, without the line ending. */
  onLine(line: string, stream: 'stdout' | 'stderr'): void;
  /** Called with the process id (which is also its process group id) once the process runs. */
  onStart?(pid: number): void;
}

/** Lines longer than this are cut into pieces, so one runaway line cannot exhaust memory. */
export const MAX_LINE_LENGTH = 64 * 1024;

function createLineSplitter(emit: (line: string) => void) {
  let pending = '';
  return {
    push(chunk: string) {
      pending += chunk;
      let start = 0;
      for (;;) {
        const newline = pending.indexOf('\n', start);
        if (newline === -1) break;
        let line = pending.slice(start, newline);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        emitLong(line);
        start = newline + 1;
      }
      pending = pending.slice(start);
      while (pending.length > MAX_LINE_LENGTH) {
        emit(pending.slice(0, MAX_LINE_LENGTH));
        pending = pending.slice(MAX_LINE_LENGTH);
      }
    },
    flush() {
      if (pending) emitLong(pending.endsWith('\r') ? pending.slice(0, -1) : pending);
      pending = '';
    },
  };
  function emitLong(line: string) {
    for (let i = 0; i < line.length || i === 0; i += MAX_LINE_LENGTH) {
      emit(line.slice(i, i + MAX_LINE_LENGTH));
      if (line.length === 0) break;
    }
  }
}

/**
 * The only place that starts processes. The child leads its own process group, so a stop or a
 * timeout reaches every process it started (children of bash included), never only the top one.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const graceMs = options.killGraceMs ?? 10_000;
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ outcome: 'cancelled', exitCode: null, signal: null });
      return;
    }
    let child;
    try {
      child = spawn(options.command, options.args, {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        // stdin is /dev/null: tasks never wait for input, and bash would read ~/.bashrc if stdin were a socket.
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ outcome: 'spawn_failed', exitCode: null, signal: null, error: String(error) });
      return;
    }

    let stopReason: 'timed_out' | 'cancelled' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let spawnError: string | undefined;

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = (reason: 'timed_out' | 'cancelled') => {
      if (stopReason) {
        if (options.forceKill?.()) killGroup('SIGKILL');
        return;
      }
      stopReason = reason;
      if (options.forceKill?.()) {
        killGroup('SIGKILL');
        return;
      }
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), graceMs);
    };

    const onAbort = () => stop('cancelled');
    options.signal?.addEventListener('abort', onAbort);
    const timeout = options.timeoutMs ? setTimeout(() => stop('timed_out'), options.timeoutMs) : undefined;

    const stdout = createLineSplitter((line) => options.onLine(line, 'stdout'));
    const stderr = createLineSplitter((line) => options.onLine(line, 'stderr'));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));

    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('spawn', () => {
      if (child.pid !== undefined) options.onStart?.(child.pid);
    });
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the leader left running in its group goes with it; otherwise a stray background
      // process would hold the output pipes open and the task would never end.
      killGroup('SIGKILL');
    });
    child.on('close', (code, signal) => {
      stdout.flush();
      stderr.flush();
      if (timeout) clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      const final = exit ?? { code, signal };
      if (spawnError !== undefined && exit === undefined) {
        resolve({ outcome: 'spawn_failed', exitCode: null, signal: null, error: spawnError });
      } else if (stopReason) {
        resolve({ outcome: stopReason, exitCode: null, signal: final.signal });
      } else {
        resolve({ outcome: 'exited', exitCode: final.code, signal: final.signal });
      }
    });
  });
}

/**
 * Kills the process group a dead server left behind for a task, but only if its leader still
 * carries that task's GANTRY_TASK_ID: a recycled process id must never hit an innocent process.
 */
export function killOrphanedTaskProcesses(pid: number, taskId: number): boolean {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    if (!environ.split('\0').includes(`GANTRY_TASK_ID=${taskId}`)) return false;
    process.kill(-pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}
