import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { freePort } from './machine.ts';
import {
  createScriptTemplate,
  signInToProcess,
  startServerProcess,
  type ProcessApi,
} from './server-process-fixture.ts';

// A test hook of its own file: server-process-fixture.ts is also loaded by the benchmarks, outside vitest.

/**
 * A store and a scripts directory that outlive one server process, for tests that kill a server and
 * start another on the same store; `start` starts one with a known admin, `startScriptTask` starts one
 * on a free port and a task in it. Registers the clean-up.
 */
export function useServerStore(name: string, adminPassword: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `gantry-${name}-`));
  const scripts = mkdtempSync(path.join(os.tmpdir(), `gantry-${name}-scripts-`));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scripts, { recursive: true, force: true });
  });
  async function start(port: number): Promise<ChildProcess> {
    const { child } = await startServerProcess({
      dataDir,
      port,
      env: { GANTRY_ADMIN_LOGIN: 'admin', GANTRY_ADMIN_PASSWORD: adminPassword },
    });
    children.push(child);
    return child;
  }
  return {
    dataDir,
    scripts,
    start,
    /**
     * Starts a server on a free port, signs in as its admin and runs a task of a new bash template
     * (`names.playbook` from the scripts directory); the server's session client calls it.
     */
    async startScriptTask(names: { project: string; template: string; playbook: string }) {
      const port = await freePort();
      const server = await start(port);
      const call: ProcessApi = await signInToProcess(`http://127.0.0.1:${port}`, 'admin', adminPassword);
      const { base, templateId } = await createScriptTemplate(call, scripts, names);
      const task = await call('POST', `${base}/tasks`, { template_id: templateId });
      return { port, server, call, base, taskId: task.id };
    },
  };
}
