import { runProcess, type RunProcessOptions } from '../../src/run-process.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/**
 * Starts `bash -c script` in /tmp with only PATH in its environment (`options` over these), gathering
 * its lines; `controller` stops it.
 */
export function runBash(script: string, options: Partial<RunProcessOptions> = {}) {
  const controller = new AbortController();
  const lines: string[] = [];
  const running = runProcess({
    command: 'bash',
    args: ['-c', script],
    cwd: '/tmp',
    env,
    signal: controller.signal,
    onLine: (line) => lines.push(line),
    ...options,
  });
  return { controller, lines, running };
}
