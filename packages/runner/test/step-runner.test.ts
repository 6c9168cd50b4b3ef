import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { TASK_MARK_VARIABLE } from '../src/process-sweep.ts';
import { createRedactor } from '../src/redact.ts';
import { MAX_LINE_LENGTH } from '../src/run-process.ts';
import { createStepRunner } from '../src/step-runner.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

function steps(baseEnv: Record<string, string>) {
  return createStepRunner({
    baseEnv: { PATH, ...baseEnv },
    signal: new AbortController().signal,
    forceKill: () => false,
    redact: (line) => line,
    emit: () => undefined,
  });
}

describe('createStepRunner environment', () => {
  it("keeps the task's process mark: a step's variables cannot aim the sweep at another task's processes", async () => {
    const output: string[] = [];
    const runner = steps({ [TASK_MARK_VARIABLE]: 'ours-1', OTHER: 'base' });
    const env = { [TASK_MARK_VARIABLE]: 'theirs-2', OTHER: 'step' };
    expect(
      await runner.run({
        command: 'bash',
        args: ['-c', `echo "$${TASK_MARK_VARIABLE} $OTHER"`],
        cwd: os.tmpdir(),
        env,
        quiet: true,
        capture: output,
      }),
    ).toBe(true);
    expect(output).toEqual(['ours-1 step']);
  });

  it('without a mark of its own, a step gets a fresh one, not the one its variables name', async () => {
    const output: string[] = [];
    const env = { [TASK_MARK_VARIABLE]: 'theirs-2' };
    expect(
      await steps({}).run({
        command: 'bash',
        args: ['-c', `echo "$${TASK_MARK_VARIABLE}"`],
        cwd: os.tmpdir(),
        env,
        quiet: true,
        capture: output,
      }),
    ).toBe(true);
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('createStepRunner output', () => {
  it('a line exactly as long as a cut piece stays its own line, with a secret runner', async () => {
    const lines: string[] = [];
    const runner = createStepRunner({
      baseEnv: { PATH },
      signal: new AbortController().signal,
      forceKill: () => false,
      redact: createRedactor(['a-secret-value']),
      emit: (line) => lines.push(line),
    });
    const script = `head -c ${MAX_LINE_LENGTH} /dev/zero | tr '\\0' a; echo; echo next`;
    expect(await runner.exec({ command: 'bash', args: ['-c', script], cwd: os.tmpdir() })).toBe(0);
    expect(lines.slice(1)).toEqual(['a'.repeat(MAX_LINE_LENGTH), 'next']);
  });

  it('hands a step its standard output as text: long lines whole, secrets masked across cuts, stderr apart', async () => {
    const secret = 'a-secret-value';
    const stdout: string[] = [];
    const runner = createStepRunner({
      baseEnv: { PATH, SECRET: secret },
      signal: new AbortController().signal,
      forceKill: () => false,
      redact: createRedactor([secret]),
      emit: () => undefined,
    });
    // The secret straddles the first cut of a line three pieces long.
    const before = MAX_LINE_LENGTH - 5;
    const script =
      `head -c ${before} /dev/zero | tr '\\0' x; printf '%s' "$SECRET"; head -c ${MAX_LINE_LENGTH * 2} /dev/zero | tr '\\0' y; echo; ` +
      'echo warning >&2; echo last';
    expect(await runner.exec({ command: 'bash', args: ['-c', script], cwd: os.tmpdir(), quiet: true, stdout })).toBe(0);
    expect(stdout.join('')).toBe(`${'x'.repeat(before)}********${'y'.repeat(MAX_LINE_LENGTH * 2)}\nlast\n`);
  });
});
