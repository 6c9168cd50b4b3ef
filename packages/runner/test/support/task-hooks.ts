import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunTaskHooks } from '../../src/run-task.ts';

const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8' };

/**
 * The hooks a test runs a task with: a fresh work root, confirmation granted, and what the task
 * says (lines, commits, statuses) collected for the test to read.
 */
export function createTaskHooks(overrides: Partial<RunTaskHooks> = {}) {
  const lines: string[] = [];
  const commits: [string, string][] = [];
  const statuses: string[] = [];
  const controller = new AbortController();
  const hooks: RunTaskHooks = {
    workRoot: mkdtempSync(path.join(os.tmpdir(), 'gantry-work-')),
    baseEnv,
    signal: controller.signal,
    forceKill: () => false,
    killGraceMs: 500,
    onLine: (line) => lines.push(line),
    onCommit: (hash, message) => commits.push([hash, message]),
    onStatus: (status) => statuses.push(status),
    waitForConfirmation: () => Promise.resolve(true),
    ...overrides,
  };
  return { hooks, lines, commits, statuses, controller };
}
