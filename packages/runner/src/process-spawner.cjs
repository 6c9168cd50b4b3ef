// The process spawner: a small helper Node process that starts the task processes of the process that
// started it, each as the leader of its own process group, and forwards their events and output over
// the IPC channel (see run-process.ts). Plain CommonJS run by `node` itself: the same under tsx,
// vitest and a build, which copies this file beside its bundle.
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
    if (unsent < RESUME_BELOW)
      for (const child of paused) {
        paused.delete(child);
        child.stdout.resume();
        child.stderr.resume();
      }
  });
}
process.on('disconnect', () => process.exit(0));
const children = new Map();
process.on('message', (request) => {
  const id = request.id;
  if (request.type === 'abandon') {
    // The leader is gone but something that escaped its group still holds the pipes: stop reading them.
    const child = children.get(id);
    children.delete(id);
    if (child) {
      paused.delete(child);
      child.stdout.destroy();
      child.stderr.destroy();
    }
    return;
  }
  let child;
  try {
    child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    send({ type: 'failed', id, message: String(error) });
    return;
  }
  children.set(id, child);
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
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    send({ type: 'exit', id, code, signal });
  });
  child.on('close', (code, signal) => {
    children.delete(id);
    paused.delete(child);
    send({ type: 'close', id, code, signal });
  });
});
