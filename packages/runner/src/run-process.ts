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
 * Node's spawn forks the whole calling process and waits until the child has called exec: in a
 * server of a few hundred megabytes that is milliseconds of its event loop per process, plus
 * copy-on-write faults afterwards. So processes are started by a small helper Node process (a
 * fraction of the cost to fork) that leads nothing but the children: it starts each one as the
 * leader of its own process group and forwards its events and decoded output in order over the IPC
 * channel. While this side has not read the channel, the helper stops reading the child's pipes, so
 * a flood of output waits in the child as it would with a direct pipe. The helper leaves when its
 * server does (the channel closes); the children, like directly spawned detached ones, remain for
 * the next server's recovery. Plain JavaScript given to `node -e`: it runs the same under tsx,
 * vitest and a build.
 */
const SPAWNER_SOURCE = `
process.title = 'gantry-process-spawner';
const { spawn } = require('node:child_process');
const PAUSE_ABOVE = 64;
const RESUME_BELOW = 16;
let unsent = 0;
const paused = new Set();
function send(message) {
  unsent += 1;
  process.send(message, () => {
    unsent -= 1;
    if (unsent < RESUME_BELOW) for (const child of paused) { paused.delete(child); child.stdout.resume(); child.stderr.resume(); }
  });
}
process.on('disconnect', () => process.exit(0));
process.on('message', (request) => {
  const id = request.id;
  let child;
  try {
    child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    send({ type: 'failed', id, message: String(error) });
    return;
  }
  const forward = (stream) => (chunk) => {
    send({ type: 'data', id, stream, chunk });
    if (unsent > PAUSE_ABOVE && !paused.has(child)) {
      paused.add(child);
      child.stdout.pause();
      child.stderr.pause();
    }
  };
  child.stdout.setEncoding('utf8').on('data', forward('stdout'));
  child.stderr.setEncoding('utf8').on('data', forward('stderr'));
  child.on('error', (error) => send({ type: 'error', id, message: error.message }));
  child.on('spawn', () => send({ type: 'spawn', id, pid: child.pid }));
  child.on('exit', (code, signal) => {
    // Whatever the leader left running in its group goes with it; otherwise a stray background
    // process would hold the output pipes open and the task would never end.
    try { process.kill(-child.pid, 'SIGKILL'); } catch {}
    send({ type: 'exit', id, code, signal });
  });
  child.on('close', (code, signal) => {
    paused.delete(child);
    send({ type: 'close', id, code, signal });
  });
});
`;

type SpawnerEvent =
  | { type: 'spawn'; id: number; pid: number }
  | { type: 'failed' | 'error' | 'lost'; id: number; message: string }
  | { type: 'data'; id: number; stream: 'stdout' | 'stderr'; chunk: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

interface Spawner {
  start(request: { command: string; args: readonly string[]; cwd: string; env: Record<string, string> }, listener: (event: SpawnerEvent) => void): number;
  release(id: number): void;
}

// One helper per process, started with its first task process: it is a resource of the process, like its pid.
let spawner: Spawner | undefined;

function connectSpawner(): Spawner {
  if (spawner) return spawner;
  // An empty environment: the helper needs none, and NODE_OPTIONS (loaders such as tsx) must stay out.
  const helper = spawn(process.execPath, ['-e', SPAWNER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', env: {} });
  const listeners = new Map<number, (event: SpawnerEvent) => void>();
  let nextId = 1;
  // The helper keeps this process alive only while it runs processes, as the children themselves would.
  const hold = (held: boolean) => {
    if (held) helper.ref();
    else helper.unref();
    if (held) helper.channel?.ref();
    else helper.channel?.unref();
  };
  hold(false);
  helper.on('message', (event: SpawnerEvent) => listeners.get(event.id)?.(event));
  helper.on('error', () => undefined);
  helper.on('exit', () => {
    if (spawner === connected) spawner = undefined;
    for (const [id, listener] of listeners) listener({ type: 'lost', id, message: 'the process spawner stopped' });
    listeners.clear();
  });
  const connected: Spawner = {
    start(request, listener) {
      const id = nextId++;
      if (listeners.size === 0) hold(true);
      listeners.set(id, listener);
      helper.send({ id, command: request.command, args: [...request.args], cwd: request.cwd, env: request.env });
      return id;
    },
    release(id) {
      listeners.delete(id);
      if (listeners.size === 0) hold(false);
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
        case 'lost':
          // Without the helper the output is gone: the process must not run on unseen.
          killGroup('SIGKILL');
          stdout.flush();
          stderr.flush();
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
