import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { TASK_MARK_VARIABLE, createTaskMark, createTaskMarkScope, killMarkedProcesses } from '../src/process-sweep.ts';
import type { RunProcessOptions } from '../src/run-process.ts';
import { runBash } from './support/run-bash.ts';
import { isRunning, plantedPids, plantingScript } from './support/process-state.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const dirs: string[] = [];
const strays: number[] = [];

afterAll(() => {
  // A failing run must not leave its sleepers behind for the rest of the suite.
  for (const dir of dirs)
    for (const file of readdirSync(dir)) strays.push(Number(readFileSync(path.join(dir, file), 'utf8')));
  for (const pid of strays.filter(isOurs)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Process ids get reused: only a process still running one of this file's commands is killed. */
function isOurs(pid: number): boolean {
  try {
    return (
      pid > 0 &&
      /^([^\x00]*\/)?(sleep\x0031\d\x00|bash\x00-c\x00.*gantry-tree-)/.test(
        readFileSync(`/proc/${pid}/cmdline`, 'latin1'),
      )
    );
  } catch {
    return false;
  }
}

/** Starts `bash -c script` (see runBash), its process remembered for the clean-up. */
function start(script: string, extra: Partial<RunProcessOptions> = {}) {
  return runBash(script, { onStart: (pid) => strays.push(pid), ...extra });
}

function newDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-tree-'));
  dirs.push(dir);
  return dir;
}

/**
 * Once the script started with `controller` has planted its processes in `dir`, stops it: the run ends
 * cancelled within `withinMs`, with none of them left running.
 */
async function expectStopEndsAllWithin(
  dir: string,
  { lines, running }: ReturnType<typeof start>,
  controller: AbortController,
  withinMs: number,
): Promise<void> {
  await expect.poll(() => lines, { timeout: 10_000 }).toContain('planted');
  const pids = plantedPids(dir);
  const stopped = Date.now();
  controller.abort();
  expect((await running).outcome).toBe('cancelled');
  expect(Date.now() - stopped).toBeLessThan(withinMs);
  expect(pids.filter(isRunning)).toEqual([]);
}

describe('process trees', () => {
  it('a stop leaves no descendant running: same group, setsid and double-forked ones alike', async () => {
    const dir = newDir();
    const controller = new AbortController();
    const { lines, running } = start(plantingScript(dir, 317, 'sleep 317'), {
      signal: controller.signal,
      killGraceMs: 2000,
    });
    await expect.poll(() => lines, { timeout: 10_000 }).toContain('planted');
    const pids = plantedPids(dir);
    expect(pids.every(isRunning)).toBe(true);
    controller.abort();
    expect((await running).outcome).toBe('cancelled');
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('descendants that ignore SIGTERM are killed when the grace period ends', async () => {
    const dir = newDir();
    const controller = new AbortController();
    const script = plantingScript(dir, 317, 'sleep 317').replaceAll("bash -c '", 'bash -c \'trap "" TERM; ');
    const started = start(`trap '' TERM\n${script}`, { signal: controller.signal, killGraceMs: 500 });
    await expectStopEndsAllWithin(dir, started, controller, 4000);
  });

  it('a force stop kills every descendant at once', async () => {
    const dir = newDir();
    const controller = new AbortController();
    const started = start(`trap '' TERM\n${plantingScript(dir, 317, 'sleep 317')}`, {
      signal: controller.signal,
      forceKill: () => true,
      killGraceMs: 60_000,
    });
    await expectStopEndsAllWithin(dir, started, controller, 3000);
  });

  it('a force stop asked for during a graceful stop kills at once instead of waiting for the grace period', async () => {
    const dir = newDir();
    const controller = new AbortController();
    let force = false;
    const { lines, running } = start(
      `trap 'echo got TERM' TERM\n${plantingScript(dir, 317, 'while true; do sleep 0.1; done')}`,
      {
        signal: controller.signal,
        forceKill: () => force,
        killGraceMs: 60_000,
      },
    );
    await expect.poll(() => lines, { timeout: 10_000 }).toContain('planted');
    const pids = plantedPids(dir);
    controller.abort();
    await expect.poll(() => lines).toContain('got TERM');
    const forced = Date.now();
    force = true;
    expect((await running).outcome).toBe('cancelled');
    expect(Date.now() - forced).toBeLessThan(3000);
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('a timeout leaves no descendant running', async () => {
    const dir = newDir();
    const { running } = start(plantingScript(dir, 317, 'sleep 317'), { timeoutMs: 1500, killGraceMs: 1000 });
    expect((await running).outcome).toBe('timed_out');
    expect(plantedPids(dir).filter(isRunning)).toEqual([]);
  });

  it('a script that exits ends its run at once and takes the daemons holding its output with it', async () => {
    const dir = newDir();
    const started = Date.now();
    const { running } = start(plantingScript(dir, 317, 'exit 4'));
    expect(await running).toMatchObject({ outcome: 'exited', exitCode: 4 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(plantedPids(dir).filter(isRunning)).toEqual([]);
  });

  it('a process holding the output that shed the mark and left the group does not keep the run from ending', async () => {
    const started = Date.now();
    // env -i drops the mark and setsid leaves the group: nothing can find this one, but the run still ends.
    const { lines, running } = start(
      `env -i "$(command -v setsid)" "$(command -v bash)" -c 'echo $$; exec "$0" 318' "$(command -v sleep)" &\nsleep 0.3\necho done`,
    );
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    strays.push(Number(lines[0]));
    expect(await running).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(Date.now() - started).toBeLessThan(3500);
    expect(lines).toContain('done');
  });

  it('a sweep by mark kills exactly that task, and a sweep by scope every task of that installation only', () => {
    const dir = newDir();
    const scope = createTaskMarkScope('server', dir);
    const other = createTaskMarkScope('server', `${dir}-other`);
    expect(createTaskMarkScope('runner', dir)).not.toBe(scope);
    const plant = (mark: string) => {
      const child = spawn('sleep', ['319'], {
        env: { ...env, [TASK_MARK_VARIABLE]: mark },
        detached: true,
        stdio: 'ignore',
      });
      child.unref();
      strays.push(child.pid ?? 0);
      return child.pid ?? 0;
    };
    const task1 = plant(createTaskMark(scope, 1));
    const task12 = plant(createTaskMark(scope, 12));
    const otherTask1 = plant(createTaskMark(other, 1));
    return (async () => {
      await expect.poll(() => [task1, task12, otherTask1].every(isMarked)).toBe(true);
      expect(await killMarkedProcesses({ mark: createTaskMark(scope, 1) })).toBe(1);
      expect([task1, task12, otherTask1].map(isRunning)).toEqual([false, true, true]);
      expect(await killMarkedProcesses({ scope })).toBe(1);
      expect([task12, otherTask1].map(isRunning)).toEqual([false, true]);
    })();
  });
});

describe('the sweep in a process of its own', () => {
  it('keeps the process alive while a sweep waits for its reader, and lets it end once the sweep is done', async () => {
    const dir = newDir();
    const scope = createTaskMarkScope('runner', dir);
    const sleeper = spawn('sleep', ['318'], {
      env: { ...env, [TASK_MARK_VARIABLE]: createTaskMark(scope, 7) },
      detached: true,
      stdio: 'ignore',
    });
    sleeper.unref();
    strays.push(sleeper.pid ?? 0);
    await expect.poll(() => isMarked(sleeper.pid ?? 0)).toBe(true);
    // Nothing else holds the child's event loop: without its sweep it would end before printing,
    // and a reader thread left holding it would keep it running until the timeout. The second sweep
    // finds the reader started and idle.
    const sweepModule = new URL('../src/process-sweep.ts', import.meta.url).href;
    const sweep = `listMarkedTaskIds(${JSON.stringify(scope)})`;
    const script = `const { listMarkedTaskIds } = await import(${JSON.stringify(sweepModule)}); await ${sweep}; console.log(JSON.stringify(await ${sweep}));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env,
      timeout: 10_000,
    });
    expect(JSON.parse(stdout)).toEqual([7]);
    expect(await killMarkedProcesses({ scope })).toBe(1);
  });
});

/** Once exec'd, the process's environment (with the mark) is what /proc shows. */
function isMarked(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`${TASK_MARK_VARIABLE}=`);
  } catch {
    return false;
  }
}
