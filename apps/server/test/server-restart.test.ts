import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRunning } from '../../../packages/runner/test/support/process-state.ts';
import { describe, expect, it } from 'vitest';
import { waitForScriptPid } from './server-process-fixture.ts';
import { useServerStore } from './server-store-fixture.ts';

describe('a server killed in the middle of a task', () => {
  const { scripts, start, startScriptTask } = useServerStore('restart', 'restart-Pass-1');

  it('leaves no task running after a restart, and stops the processes the task left behind', async () => {
    writeFileSync(path.join(scripts, 'long.sh'), 'echo "pid $$"\nsleep 300\n');
    const { port, server, call, base, taskId } = await startScriptTask({
      project: 'Restart',
      template: 'Long',
      playbook: 'long.sh',
    });

    const scriptPid = await waitForScriptPid(call, base, taskId);
    expect(scriptPid).toBeGreaterThan(0);

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    expect(isRunning(scriptPid)).toBe(true);

    await start(port);
    const after = await call('GET', `${base}/tasks/${taskId}`);
    expect(after.status).toBe('error');
    const lines = (await call<{ output: string }[]>('GET', `${base}/tasks/${taskId}/output`)).map((l) => l.output);
    expect(lines).toContain(
      'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
    );
    expect(lines).toContain('Its processes, still running, were stopped.');
    await expect.poll(() => isRunning(scriptPid)).toBe(false);
  });
});
