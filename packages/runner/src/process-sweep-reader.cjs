// The reading half of the process sweep (see process-sweep.ts), on a worker thread of its own. Asked
// with any message, it reads /proc/<pid>/environ of every process and answers with the live ones
// carrying `workerData.anyMark`, as { pid, environment } with a leading NUL on the environment.
// Synchronous reads cost a quarter of the CPU of the same reads through the thread pool, but one can
// wait in the kernel for as long as the process read is stuck (its memory map locked by a fault on a
// hung network file system, its stack swapped out): here that stalls only this thread, never the
// server's. Plain CommonJS loaded by Node itself: the same under tsx, vitest and a build, which copies
// this file beside its bundle.
'use strict';
const { closeSync, openSync, readSync, readdirSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');

const chunk = Buffer.allocUnsafe(64 * 1024);

/** A process's environment with a leading NUL, or undefined when it is gone or not ours to read. */
function readEnvironment(pid) {
  let fd;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
    let environment = '\0';
    for (;;) {
      const length = readSync(fd, chunk, 0, chunk.length, null);
      if (length === 0) return environment;
      environment += chunk.toString('latin1', 0, length);
    }
  } catch {
    // Gone meanwhile, or another user's process (unreadable, and not ours to kill).
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readAllMarkedProcesses() {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const found = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue;
    const environment = readEnvironment(pid);
    if (environment !== undefined && environment.includes(workerData.anyMark)) found.push({ pid, environment });
  }
  return found;
}

parentPort.on('message', () => parentPort.postMessage(readAllMarkedProcesses()));
