import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Every process Gantry starts carries a mark in this environment variable, and everything it starts
 * inherits it. A process group is left by `setsid` and by a daemon's double fork, and the parent link
 * is lost when the parent dies, but the environment stays with a process whatever it does to its
 * session: after a stop, a timeout or a crashed server, reading /proc/<pid>/environ finds every
 * process a task started, even when the one that started them is long gone.
 *
 * Limits: this needs /proc (Linux); elsewhere (macOS) only the process group of a running task is
 * reached, and a crashed server leaves its tasks' processes running. A process hides from the sweep
 * if it starts its children with a cleaned environment (`env -i`, sudo, systemd-run), writes over its
 * own environment (some daemons do so to change their title), or runs as another user.
 */
export const TASK_MARK_VARIABLE = 'GANTRY_TASK_MARK';

/** SIGKILL rounds before giving up on processes that keep forking faster than they are killed. */
const MAX_KILL_ROUNDS = 50;
const KILL_ROUND_PAUSE_MS = 10;

/**
 * The part of its task marks that names an installation: a server by its data directory, a runner by
 * its work directory. It stays the same after a restart, so recovery finds what the dead process
 * left, and differs between installations on one machine (the test suite runs dozens, all with a
 * task 1), so one never kills another's processes.
 */
export function createTaskMarkScope(kind: 'server' | 'runner', directory: string): string {
  return createHash('sha256')
    .update(`gantry ${kind}\0${path.resolve(directory)}`)
    .digest('hex')
    .slice(0, 24);
}

/** The mark of one task of an installation. */
export function createTaskMark(scope: string, taskId: number): string {
  return `${scope}-${taskId}`;
}

/** The mark of a process that belongs to no task, so what it leaves behind can still be found. */
export function createProcessMark(): string {
  return randomBytes(12).toString('hex');
}

/** Either the processes of one mark, or those of every task of an installation. */
export type MarkedProcesses = { mark: string } | { scope: string };

function needleOf(target: MarkedProcesses): string {
  // Marks are fixed-length hex, a dash and a task id: the closing NUL (or the dash) keeps task 1 from matching task 12.
  return 'mark' in target ? `\0${TASK_MARK_VARIABLE}=${target.mark}\0` : `\0${TASK_MARK_VARIABLE}=${target.scope}-`;
}

interface MarkedProcess {
  pid: number;
  /** Its environment with a leading NUL, so that every variable, the first too, follows a NUL. */
  environment: string;
}

/**
 * The reads run on a worker thread (process-sweep-reader.cjs, beside this module; the build copies it
 * beside its bundle), synchronously there: a quarter of the CPU of reads through the thread pool,
 * and a read stuck in the kernel on a wedged process stalls that thread, not this one.
 */
const READER_FILE = fileURLToPath(new URL('./process-sweep-reader.cjs', import.meta.url));
let reader: Worker | undefined;

function startReader(): Worker {
  const worker = new Worker(READER_FILE, { workerData: { anyMark: `\0${TASK_MARK_VARIABLE}=` } });
  // A failure reaches the pass waiting for it through that pass's own listeners; an idle reader's
  // must not bring the process down. The exit that follows either way lets the next pass start anew.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    if (reader === worker) reader = undefined;
  });
  worker.unref();
  return worker;
}

/** Every live process carrying some Gantry mark, with its environment; zombies have none left and are not listed. */
function readAllMarkedProcesses(): Promise<MarkedProcess[]> {
  return new Promise((resolve, reject) => {
    const worker = (reader ??= startReader());
    const settle = () => {
      worker.off('message', onMessage).off('error', onFailure).off('exit', onFailure);
      // Idle, it does not keep the process alive; while a sweep waits for it, it does.
      worker.unref();
    };
    const onMessage = (found: MarkedProcess[]) => {
      settle();
      resolve(found);
    };
    const onFailure = (error: unknown) => {
      settle();
      reject(
        error instanceof Error ? error : new Error(`The process sweep's reader stopped (exit code ${String(error)})`),
      );
    };
    worker.on('message', onMessage).on('error', onFailure).on('exit', onFailure);
    worker.ref();
    worker.postMessage('read');
  });
}

// One pass over /proc serves every sweep that asked while the previous pass ran or waited: each
// ending task sweeps, and a pass of its own for each of a hundred task ends a second read every
// process's environment a hundred times a second. Passes start at least PASS_INTERVAL_MS apart; a
// sweep waits for a pass that starts after it asked, so it sees every process that existed when it
// did. Like the spawner, this belongs to the process.
const PASS_INTERVAL_MS = 50;
let lastPassStarted = -Infinity;
let passUnderWay: Promise<MarkedProcess[]> | undefined;
let nextPass: Promise<MarkedProcess[]> | undefined;

async function startPass(): Promise<MarkedProcess[]> {
  const wait = lastPassStarted + PASS_INTERVAL_MS - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  lastPassStarted = performance.now();
  return readAllMarkedProcesses();
}

function scanMarkedProcesses(): Promise<MarkedProcess[]> {
  if (!passUnderWay) {
    passUnderWay = startPass().finally(() => (passUnderWay = undefined));
    return passUnderWay;
  }
  nextPass ??= passUnderWay.then(() => {
    nextPass = undefined;
    return scanMarkedProcesses();
  });
  return nextPass;
}

async function listProcessesWith(needle: string): Promise<MarkedProcess[]> {
  return (await scanMarkedProcesses()).filter((found) => found.environment.includes(needle));
}

async function listMarkedProcesses(target: MarkedProcesses): Promise<number[]> {
  return (await listProcessesWith(needleOf(target))).map((found) => found.pid);
}

/**
 * The tasks of an installation that still have live processes on this machine: after a crash, the
 * ones whose task another node has meanwhile closed are found by their task id.
 */
export async function listMarkedTaskIds(scope: string): Promise<number[]> {
  const needle = needleOf({ scope });
  const ids = new Set<number>();
  for (const { environment } of await listProcessesWith(needle)) {
    const start = environment.indexOf(needle) + needle.length;
    const id = Number(environment.slice(start, environment.indexOf('\0', start)));
    if (Number.isSafeInteger(id) && id > 0) ids.add(id);
  }
  return [...ids];
}

function signalProcess(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Sends one signal to every process carrying the mark (a graceful stop: they get their grace period). */
export async function signalMarkedProcesses(target: MarkedProcesses, signal: NodeJS.Signals): Promise<number> {
  let signalled = 0;
  for (const pid of await listMarkedProcesses(target)) if (signalProcess(pid, signal)) signalled += 1;
  return signalled;
}

/**
 * SIGKILLs every process carrying the mark, again and again until none is left: a process can fork
 * between the scan and its kill, and its child, marked too, is caught by the next round. Returns how
 * many distinct processes were killed.
 */
export async function killMarkedProcesses(target: MarkedProcesses): Promise<number> {
  const killed = new Set<number>();
  for (let round = 0; round < MAX_KILL_ROUNDS; round++) {
    const pids = await listMarkedProcesses(target);
    if (pids.length === 0) break;
    for (const pid of pids) if (signalProcess(pid, 'SIGKILL')) killed.add(pid);
    // A killed process keeps its environment until the kernel has torn it down: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, KILL_ROUND_PAUSE_MS));
  }
  return killed.size;
}
