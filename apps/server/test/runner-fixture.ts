import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRunnerAgent, createRunnerClient } from '@gantry/runner';
import { expect } from 'vitest';
import { listen, type TestApp } from './test-app.ts';

/**
 * Registers a runner named `name` in the project at `base` (its API path), runs a runner agent for it in
 * this process against `t` while `use` runs, then stops the agent and removes the runner.
 */
export async function withRemoteRunner(
  t: TestApp,
  base: string,
  name: string,
  use: (runnerId: number) => Promise<void>,
): Promise<void> {
  const runner = await t.request('POST', `${base}/runners`, { as: t.adminCookie, body: { name } });
  expect(runner.status, runner.text).toBe(201);
  const { id: runnerId, token } = runner.body as { id: number; token: string };
  const agent = createRunnerAgent({
    client: createRunnerClient(await listen(t.app), token),
    workDir: mkdtempSync(path.join(os.tmpdir(), 'gantry-remote-runner-')),
    baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: os.tmpdir() },
    print: () => undefined,
    pollWaitSeconds: 1,
  });
  const running = agent.run();
  try {
    await use(runnerId);
  } finally {
    agent.stop();
    await running;
    // The runner client's kept-alive connections would hold the server's close open.
    t.app.server.closeAllConnections();
    await t.request('DELETE', `${base}/runners/${runnerId}`, { as: t.adminCookie });
  }
}

/**
 * With the runner of `runnerToken` reporting `taskId` running: a long poll (`waitSeconds`) through `poller`
 * answers at once with the job running, and the next one, waiting, answers within 5 s of a force stop
 * given through `stopper` with the job stopping.
 */
export async function expectLongPollHearsForceStop(
  poller: TestApp,
  stopper: TestApp,
  projectBase: string,
  runnerToken: string,
  taskId: number,
  waitSeconds: number,
): Promise<void> {
  const longPoll = () =>
    poller.request('GET', `/api/internal/runners?wait=${waitSeconds}`, {
      headers: { 'x-runner-token': runnerToken, 'x-runner-started-at': '2026-01-01T00:00:00.000Z' },
    });
  expect(((await longPoll()).body as { CurrentJobs: unknown[] }).CurrentJobs).toEqual([
    { id: taskId, status: 'running', force: false },
  ]);
  const pending = longPoll();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const stop = await stopper.request('POST', `${projectBase}/tasks/${taskId}/stop`, {
    as: stopper.adminCookie,
    body: { force: true },
  });
  expect(stop.status).toBe(204);
  const stoppedAt = Date.now();
  expect(((await pending).body as { CurrentJobs: unknown[] }).CurrentJobs).toEqual([
    { id: taskId, status: 'stopping', force: true },
  ]);
  expect(Date.now() - stoppedAt).toBeLessThan(5000);
}
