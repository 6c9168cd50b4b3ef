import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isRunning } from '../../../packages/runner/test/support/process-state.ts';
import { describe, expect, it } from 'vitest';
import { createScriptTemplate, freePort, signInToProcess } from './server-process-fixture.ts';
import { useServerStore } from './server-store-fixture.ts';

describe('a server killed in the middle of a task', () => {
  const { scripts, start } = useServerStore('restart', 'restart-Pass-1');

  it('leaves no task running after a restart, and stops the processes the task left behind', async () => {
    writeFileSync(path.join(scripts, 'long.sh'), 'echo "pid $$"\nsleep 300\n');
    const port = await freePort();
    const first = await start(port);
    const call = await signInToProcess(`http://127.0.0.1:${port}`, 'admin', 'restart-Pass-1');
    const { base, templateId } = await createScriptTemplate(call, scripts, {
      project: 'Restart',
      template: 'Long',
      playbook: 'long.sh',
    });
    const task = await call('POST', `${base}/tasks`, { template_id: templateId });

    let scriptPid = 0;
    for (let i = 0; i < 200 && !scriptPid; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const output = await call<{ output: string }[]>('GET', `${base}/tasks/${task.id}/output`);
      scriptPid = Number(output.find((l) => l.output.startsWith('pid '))?.output.slice(4) ?? 0);
    }
    expect(scriptPid).toBeGreaterThan(0);

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(isRunning(scriptPid)).toBe(true);

    await start(port);
    const after = await call('GET', `${base}/tasks/${task.id}`);
    expect(after.status).toBe('error');
    const lines = (await call<{ output: string }[]>('GET', `${base}/tasks/${task.id}/output`)).map((l) => l.output);
    expect(lines).toContain(
      'Gantry restarted while this task was running; the task can no longer be followed and was closed.',
    );
    expect(lines).toContain('Its processes, still running, were stopped.');
    await expect.poll(() => isRunning(scriptPid)).toBe(false);
  });
});
