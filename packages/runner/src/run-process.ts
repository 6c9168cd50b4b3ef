import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

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
 * Node's spawn blocks its thread until the child has called exec (a fork of the whole process and a
 * wait on the child), several milliseconds in a busy server. So the processes are started by a small
 * worker thread and the server's event loop keeps serving meanwhile. The worker starts each child as
 * the leader of its own process group, forwards its events and decoded output in order, and pauses
 * the output pipes while too much of it waits to be processed here, as the pipe itself would.
 * Plain JavaScript evaluated in the worker: it must run the same under tsx, vitest and a build.
 */
const SPAWNER_SOURCE = `
const { spawn } = require('node:child_process');
const { parentPort } = require('node:worker_threads');
const PAUSE_ABOVE = ${4 * 1024 * 1024};
const RESUME_BELOW = ${1024 * 1024};
const children = new Map();
parentPort.on('message', (request) => {
  const id = request.id;
  if (request.type === 'ack') {
    const state = children.get(id);
    if (!state) return;
    state.pending -= request.chars;
    if (state.paused && state.pending < RESUME_BELOW) {
      state.paused = false;
      state.child.stdout.resume();
      state.child.stderr.resume();
    }
    return;
  }
  let child;
  try {
    child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', id, message: String(error) });
    return;
  }
  const state = { child, pending: 0, paused: false };
  children.set(id, state);
  const forward = (stream) => (chunk) => {
    state.pending += chunk.length;
    parentPort.postMessage({ type: 'data', id, stream, chunk });
    if (!state.paused && state.pending > PAUSE_ABOVE) {
      state.paused = true;
      child.stdout.pause();
      child.stderr.pause();
    }
  };
  child.stdout.setEncoding('utf8').on('data', forward('stdout'));
  child.stderr.setEncoding('utf8').on('data', forward('stderr'));
  child.on('error', (error) => parentPort.postMessage({ type: 'error', id, message: error.message }));
  child.on('spawn', () => parentPort.postMessage({ type: 'spawn', id, pid: child.pid }));
  child.on('exit', (code, signal) => {
    // Whatever the leader left running in its group goes with it; otherwise a stray background
    // process would hold the output pipes open and the task would never end.
    try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    parentPort.postMessage({ type: 'exit', id, code, signal });
  });
  child.on('close', (code, signal) => {
    children.delete(id);
    parentPort.postMessage({ type: 'close', id, code, signal });
  });
});
`;

type SpawnerEvent =
  | { type: 'spawn'; id: number; pid: number }
  | { type: 'failed' | 'error'; id: number; message: string }
  | { type: 'data'; id: number; stream: 'stdout' | 'stderr'; chunk: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

/** Output characters processed here before the worker hears of it (each ack is one message). */
const ACK_EVERY_CHARS = 256 * 1024;

interface Spawner {
  start(request: { command: string; args: readonly string[]; cwd: string; env: Record<string, string> }, listener: (event: SpawnerEvent) => void): number;
  ack(id: number, chars: number): void;
  release(id: number): void;
}

let spawner: Spawner | undefined;

function connectSpawner(): Spawner {
  if (spawner) return spawner;
  // execArgv: [] keeps loaders such as tsx out of the worker; it needs none.
  const worker = new Worker(SPAWNER_SOURCE, { eval: true, execArgv: [], name: 'gantry-process-spawner' });
  const listeners = new Map<number, (event: SpawnerEvent) => void>();
  let nextId = 1;
  // The worker keeps the process alive only while it has processes running, like the children would.
  worker.unref();
  worker.on('message', (event: SpawnerEvent) => listeners.get(event.id)?.(event));
  worker.on('exit', () => {
    if (spawner === connected) spawner = undefined;
    for (const [id, listener] of listeners) {
      listener({ type: 'error', id, message: 'the process spawner stopped' });
      listener({ type: 'close', id, code: null, signal: null });
    }
    listeners.clear();
  });
  const connected: Spawner = {
    start(request, listener) {
      const id = nextId++;
      if (listeners.size === 0) worker.ref();
      listeners.set(id, listener);
      worker.postMessage({ type: 'spawn', id, command: request.command, args: [...request.args], cwd: request.cwd, env: request.env });
      return id;
    },
    ack(id, chars) {
      worker.postMessage({ type: 'ack', id, chars });
    },
    release(id) {
      listeners.delete(id);
      if (listeners.size === 0) worker.unref();
    },
  };
  spawner = connected;
  return connected;
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
    let pid: number | undefined;
    let stopReason: 'timed_out' | 'cancelled' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let spawnError: string | undefined;
    let unacknowledged = 0;

    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal);
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
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const processes = connectSpawner();

    const id = processes.start(options, (event) => {
      switch (event.type) {
        case 'spawn':
          pid = event.pid;
          options.onStart?.(event.pid);
          // A stop asked for before the process existed reaches it now.
          if (stopReason) killGroup(options.forceKill?.() ? 'SIGKILL' : 'SIGTERM');
          return;
        case 'data':
          (event.stream === 'stdout' ? stdout : stderr).push(event.chunk);
          unacknowledged += event.chunk.length;
          if (unacknowledged >= ACK_EVERY_CHARS) {
            processes.ack(id, unacknowledged);
            unacknowledged = 0;
          }
          return;
        case 'error':
          spawnError = event.message;
          return;
        case 'exit':
          exit = { code: event.code, signal: event.signal };
          return;
        case 'failed':
          processes.release(id);
          finish({ outcome: 'spawn_failed', exitCode: null, signal: null, error: event.message });
          return;
        case 'close': {
          processes.release(id);
          stdout.flush();
          stderr.flush();
          const final = exit ?? { code: event.code, signal: event.signal };
          if (spawnError !== undefined && exit === undefined) {
            finish({ outcome: 'spawn_failed', exitCode: null, signal: null, error: spawnError });
          } else if (stopReason) {
            finish({ outcome: stopReason, exitCode: null, signal: final.signal });
          } else {
            finish({ outcome: 'exited', exitCode: final.code, signal: final.signal });
          }
        }
      }
    });

    function finish(result: ProcessResult): void {
      if (timeout) clearTimeout(timeout);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    }
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
