import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { TASK_MARK_VARIABLE } from '../src/process-sweep.ts';
import { createStepRunner } from '../src/step-runner.ts';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

function steps(baseEnv: Record<string, string>) {
  return createStepRunner({ baseEnv: { PATH, ...baseEnv }, signal: new AbortController().signal, forceKill: () => false, redact: (line) => line, emit: () => undefined });
}

describe('createStepRunner environment', () => {
  it("keeps the task's process mark: a step's variables cannot aim the sweep at another task's processes", async () => {
    const output: string[] = [];
    const runner = steps({ [TASK_MARK_VARIABLE]: 'ours-1', OTHER: 'base' });
    const env = { [TASK_MARK_VARIABLE]: 'theirs-2', OTHER: 'step' };
    expect(await runner.run({ command: 'bash', args: ['-c', `echo "$${TASK_MARK_VARIABLE} $OTHER"`], cwd: os.tmpdir(), env, quiet: true, capture: output })).toBe(true);
    expect(output).toEqual(['ours-1 step']);
  });

  it('without a mark of its own, a step gets a fresh one, not the one its variables name', async () => {
    const output: string[] = [];
    const env = { [TASK_MARK_VARIABLE]: 'theirs-2' };
    expect(await steps({}).run({ command: 'bash', args: ['-c', `echo "$${TASK_MARK_VARIABLE}"`], cwd: os.tmpdir(), env, quiet: true, capture: output })).toBe(true);
    expect(output).toHaveLength(1);
    expect(output[0]).toMatch(/^[0-9a-f]{24}$/);
  });
});
