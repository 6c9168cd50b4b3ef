import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TASK_MARK_VARIABLE, createProcessMark, killMarkedProcesses, signalMarkedProcesses } from './process-sweep.ts';

type ProcessOutcome = 'exited' | 'timed_out' | 'cancelled' | 'spawn_failed';

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
  /** The complete environment of the child; nothing is inherited. A missing TASK_MARK_VARIABLE is added. */
  env: Record<string, string>;
  /** Aborting stops the process group and every marked process: SIGTERM, then SIGKILL after killGraceMs. */
  signal?: AbortSignal;
  /** Ask for an immediate SIGKILL instead of the graceful stop; asked again while a graceful stop runs. */
  forceKill?: () => boolean;
  timeoutMs?: number;
  killGraceMs?: number;
  /**
   * Called for every output line, stdout and stderr alike, without the line ending. A line longer
   * than MAX_LINE_LENGTH comes in pieces; `cut` is true for each piece the same line goes on after.
   */
  onLine(line: string, stream: 'stdout' | 'stderr', cut: boolean): void;
  /** Called with the process id (which is also its process group id) once the process runs. */
  onStart?(pid: number): void;
}

/** Lines longer than this are cut into pieces, so one runaway line cannot exhaust memory. */
export const MAX_LINE_LENGTH = 64 * 1024;

function createLineSplitter(emit: (line: string, cut: boolean) => void) {
  let pending = '';
  return {
    push(chunk: string) {
      // What waits holds no line ending: only the new text is searched, so a long line arriving in
      // many small chunks (progress output) is not scanned again with every chunk.
      const searchFrom = pending.length;
      pending += chunk;
      let start = 0;
      for (;;) {
        const newline = pending.indexOf('\n', Math.max(start, searchFrom));
        if (newline === -1) break;
        let line = pending.slice(start, newline);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        emitLong(line);
        start = newline + 1;
      }
      pending = pending.slice(start);
      while (pending.length > MAX_LINE_LENGTH) {
        emit(pending.slice(0, MAX_LINE_LENGTH), true);
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
      emit(line.slice(i, i + MAX_LINE_LENGTH), i + MAX_LINE_LENGTH < line.length);
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
 * the next server's recovery. The helper is plain JavaScript in its own file beside this module,
 * which the build copies beside its bundle (apps/server/scripts/build.mjs): it runs the same under
 * tsx, vitest and a build.
 */
const SPAWNER_FILE = fileURLToPath(new URL('./process-spawner.cjs', import.meta.url));

/**
 * Every spawn forks the helper, and the child pays again to throw the copy away at exec: the smaller the
 * helper, the cheaper each task process. A young generation of 1 MiB and no V8 worker threads (the
 * helper's garbage is a few messages) cut the CPU of starting a short task by about a fifth on a 2-core
 * virtual machine (the helper's and the child's together), and the time to the child's first line with it.
 */
const SPAWNER_NODE_FLAGS = ['--max-semi-space-size=1', '--single-threaded'];

type SpawnerEvent =
  | { type: 'spawn'; id: number; pid: number }
  | { type: 'failed' | 'error' | 'lost'; id: number; message: string }
  | { type: 'data'; id: number; stream: 'stdout' | 'stderr'; chunk: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

interface Spawner {
  start(
    request: { command: string; args: readonly string[]; cwd: string; env: Record<string, string> },
    listener: (event: SpawnerEvent) => void,
  ): number;
  release(id: number): void;
  /** Releases a process whose output pipes outlived it: the helper stops reading them. */
  abandon(id: number): void;
}

// One helper per process, started with its first task process: it is a resource of the process, like its pid.
let spawner: Spawner | undefined;

function connectSpawner(): Spawner {
  if (spawner) return spawner;
  // An empty environment: the helper needs none, and NODE_OPTIONS (loaders such as tsx) must stay out.
  const helper = spawn(process.execPath, [...SPAWNER_NODE_FLAGS, SPAWNER_FILE], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
    env: {},
  });
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
    abandon(id) {
      connected.release(id);
      helper.send({ type: 'abandon', id });
    },
  };
  spawner = connected;
  return connected;
}

/**
 * After its leader exited, how long a process's output may take to end before whatever still holds
 * the pipes (a daemon that left the group and the mark) is abandoned and the process counts as done.
 */
const OUTPUT_DRAIN_MS = 1500;
/** While a graceful stop runs, how often to ask whether it has become a force stop. */
const FORCE_CHECK_MS = 100;

/**
 * The only place that starts processes. The child leads its own process group, and it and all it
 * starts carry a mark in their environment (see process-sweep.ts): a stop, a timeout or the end of
 * the leader reaches every process it started (children of bash, `setsid` and double-forked daemons
 * included), never only the top one. A caller that must find the processes again after a crash (a
 * task) sets the mark in `env`; otherwise each process gets a fresh one.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const graceMs = options.killGraceMs ?? 10_000;
  return new Promise((resolve) => {
    if (options.signal?.aborted) {
      resolve({ outcome: 'cancelled', exitCode: null, signal: null });
      return;
    }
    const mark = options.env[TASK_MARK_VARIABLE] || createProcessMark();
    let pid: number | undefined;
    let stopReason: 'timed_out' | 'cancelled' | undefined;
    let killed = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let forceCheck: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let spawnError: string | undefined;
    let settled = false;
    // Sweeps under way; the result waits for them, so nothing the process started outlives it.
    const sweeps: Promise<unknown>[] = [];

    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const terminate = () => {
      killGroup('SIGTERM');
      sweeps.push(signalMarkedProcesses({ mark }, 'SIGTERM'));
    };
    const killAll = () => {
      killed = true;
      clearTimeout(graceTimer);
      clearInterval(forceCheck);
      killGroup('SIGKILL');
      sweeps.push(killMarkedProcesses({ mark }));
    };
    const stop = (reason: 'timed_out' | 'cancelled') => {
      if (stopReason) {
        if (!killed && options.forceKill?.()) killAll();
        return;
      }
      stopReason = reason;
      if (options.forceKill?.()) {
        killAll();
        return;
      }
      terminate();
      graceTimer = setTimeout(killAll, graceMs);
      // forceKill is a question, not an event: a force stop asked for while this graceful one runs
      // (the abort signal has already fired) is only noticed by asking again.
      if (options.forceKill) forceCheck = setInterval(() => options.forceKill?.() && killAll(), FORCE_CHECK_MS);
    };

    const onAbort = () => stop('cancelled');
    options.signal?.addEventListener('abort', onAbort);
    const timeout = options.timeoutMs ? setTimeout(() => stop('timed_out'), options.timeoutMs) : undefined;

    const stdout = createLineSplitter((line, cut) => options.onLine(line, 'stdout', cut));
    const stderr = createLineSplitter((line, cut) => options.onLine(line, 'stderr', cut));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const processes = connectSpawner();

    const id = processes.start({ ...options, env: { ...options.env, [TASK_MARK_VARIABLE]: mark } }, (event) => {
      switch (event.type) {
        case 'spawn':
          pid = event.pid;
          options.onStart?.(event.pid);
          // A stop asked for before the process existed reaches it now.
          if (stopReason) {
            if (killed) killAll();
            else terminate();
          }
          return;
        case 'data':
          (event.stream === 'stdout' ? stdout : stderr).push(event.chunk);
          return;
        case 'error':
          spawnError = event.message;
          return;
        case 'exit':
          exit = { code: event.code, signal: event.signal };
          // The helper took the leader's group with it; what left the group goes now, and a pipe that
          // something unmarked still holds does not keep the process from ending.
          sweeps.push(killMarkedProcesses({ mark }));
          drainTimer = setTimeout(() => {
            processes.abandon(id);
            end();
          }, OUTPUT_DRAIN_MS);
          return;
        case 'failed':
          processes.release(id);
          finish({ outcome: 'spawn_failed', exitCode: null, signal: null, error: event.message });
          return;
        case 'lost':
          // Without the helper the output is gone: the process must not run on unseen.
          killAll();
          stdout.flush();
          stderr.flush();
          finish({ outcome: 'spawn_failed', exitCode: null, signal: null, error: event.message });
          return;
        case 'close':
          processes.release(id);
          if (spawnError !== undefined && exit === undefined) {
            finish({ outcome: 'spawn_failed', exitCode: null, signal: null, error: spawnError });
            return;
          }
          exit ??= { code: event.code, signal: event.signal };
          end();
      }
    });

    function end(): void {
      stdout.flush();
      stderr.flush();
      const final = exit ?? { code: null, signal: null };
      if (stopReason) finish({ outcome: stopReason, exitCode: null, signal: final.signal });
      else finish({ outcome: 'exited', exitCode: final.code, signal: final.signal });
    }

    function finish(result: ProcessResult): void {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(graceTimer);
      clearInterval(forceCheck);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      void Promise.allSettled(sweeps).then(() => resolve(result));
    }
  });
}
