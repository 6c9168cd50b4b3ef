import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../src/run-process.ts';
import { runBash } from './support/run-bash.ts';
import { isRunning } from './support/process-state.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('runProcess', () => {
  it('delivers stdout and stderr lines in order and reports the exit code', async () => {
    const { lines, running } = runBash('for i in $(seq 1 2000); do echo "line $i"; done; echo oops >&2; exit 3');
    const result = await running;
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 3 });
    expect(lines.slice(0, 2000)).toEqual(Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`));
    expect(lines).toContain('oops');
  });

  it('stopping kills the whole process tree, grandchildren of bash included', async () => {
    const { controller, lines, running } = runBash('sleep 301.5 & echo "child $!"; bash -c "sleep 301.5" & wait', {
      killGraceMs: 2000,
    });
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    const grandchild = Number(lines[0]?.split(' ')[1]);
    expect(isRunning(grandchild)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result.outcome).toBe('cancelled');
    await expect.poll(() => isRunning(grandchild)).toBe(false);
  });

  it('escalates to SIGKILL when a process ignores SIGTERM', async () => {
    const { controller, lines, running } = runBash("trap '' TERM; echo ready; while true; do sleep 0.1; done", {
      killGraceMs: 300,
    });
    await expect.poll(() => lines).toContain('ready');
    const started = Date.now();
    controller.abort();
    expect((await running).outcome).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a timeout stops the process and says so', async () => {
    const result = await runProcess({
      command: 'sleep',
      args: ['30'],
      cwd: '/tmp',
      env,
      timeoutMs: 200,
      killGraceMs: 200,
      onLine: () => undefined,
    });
    expect(result.outcome).toBe('timed_out');
  });

  it('does not wait for background processes the script left behind', async () => {
    const started = Date.now();
    const result = await runBash('sleep 301.5 & echo done').running;
    expect(result).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a missing executable as spawn_failed', async () => {
    const result = await runProcess({
      command: 'no-such-binary-gantry',
      args: [],
      cwd: '/tmp',
      env,
      onLine: () => undefined,
    });
    expect(result.outcome).toBe('spawn_failed');
  });

  it('passes only the given environment to the child', async () => {
    const lines: string[] = [];
    await runProcess({
      command: 'env',
      args: [],
      cwd: '/tmp',
      env: { ...env, ONLY_THIS: '1' },
      onLine: (l) => lines.push(l),
    });
    expect(lines.map((l) => l.split('=')[0]).sort()).toEqual(['GANTRY_TASK_MARK', 'ONLY_THIS', 'PATH']);
  });

  it('cuts an endless line into pieces instead of holding it in memory', async () => {
    const { lines, running } = runBash('head -c 200000 /dev/zero | tr "\\0" "x"; echo');
    await running;
    expect(lines.join('')).toHaveLength(200000);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(64 * 1024);
  });

  it('marks each piece of a cut line that the line goes on after, and no line of exactly the piece length', async () => {
    const pieces: [number, boolean][] = [];
    const script =
      'head -c 150000 /dev/zero | tr "\\0" "x"; echo; head -c 65536 /dev/zero | tr "\\0" "y"; echo; echo end';
    await runProcess({
      command: 'bash',
      args: ['-c', script],
      cwd: '/tmp',
      env,
      onLine: (l, _stream, cut) => pieces.push([l.length, cut]),
    });
    expect(pieces).toEqual([
      [65536, true],
      [65536, true],
      [150000 - 2 * 65536, false],
      [65536, false],
      [3, false],
    ]);
  });

  it('joins a line whose ending arrives in a later chunk, with CR LF split across chunks', async () => {
    const { lines, running } = runBash(
      "printf 'abc\\r'; sleep 0.05; printf '\\nde'; sleep 0.05; printf 'f'; sleep 0.05; printf 'g\\nlast'",
    );
    await running;
    expect(lines).toEqual(['abc', 'defg', 'last']);
  });

  it('a stop asked for before the process has started still reaches it', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = runProcess({
      command: 'sleep',
      args: ['301.5'],
      cwd: '/tmp',
      env,
      signal: controller.signal,
      killGraceMs: 200,
      onLine: () => undefined,
    });
    controller.abort();
    expect((await running).outcome).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('when the spawner helper dies, its processes are killed and the run ends instead of going on unseen', async () => {
    const { lines, running } = runBash('echo "pid $$"; sleep 301.5');
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    const pid = Number(lines[0]?.split(' ')[1]);
    // Only this test process's own helper: other test processes on the machine have theirs.
    const helpers = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'gantry-process-spawner'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    expect(helpers).toHaveLength(1);
    process.kill(Number(helpers[0]), 'SIGKILL');
    expect(await running).toMatchObject({ outcome: 'spawn_failed', error: 'the process spawner stopped' });
    await expect.poll(() => isRunning(pid)).toBe(false);
    // The next process gets a new helper.
    const next: string[] = [];
    expect(
      await runProcess({ command: 'echo', args: ['again'], cwd: '/tmp', env, onLine: (line) => next.push(line) }),
    ).toMatchObject({ outcome: 'exited', exitCode: 0 });
    expect(next).toEqual(['again']);
  });

  // 301.5 s is this file's own duration: the server's tests, running beside it, use sleep 300.
  it('leaves nothing running (sanity: pgrep finds no stray sleep 301.5)', () => {
    let out = '';
    try {
      out = execFileSync('pgrep', ['-f', 'sleep 301.5'], { encoding: 'utf8' });
    } catch {
      out = '';
    }
    expect(out.trim()).toBe('');
  });
});
