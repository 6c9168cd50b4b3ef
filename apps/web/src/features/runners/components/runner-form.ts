import { z } from 'zod';
import { RunnerBody } from '@gantry/contract';
import type { Runner } from '@gantry/contract';

/** The runner form: the contract's body, with the limit typed as text (an empty field means unlimited). */
export const runnerFormSchema = RunnerBody.extend({
  max_parallel_tasks: z.preprocess(
    (value) =>
      value === '' || value === null || value === undefined
        ? 0
        : typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
          ? Number(value)
          : value,
    RunnerBody.shape.max_parallel_tasks,
  ),
});
export type RunnerFormValues = z.output<typeof runnerFormSchema>;

export interface RunnerFormFields {
  name: string;
  webhook: string;
  max_parallel_tasks: string;
  active: boolean;
}

export function getRunnerFormDefaults(runner?: Runner): RunnerFormFields {
  return {
    name: runner?.name ?? '',
    webhook: runner?.webhook ?? '',
    max_parallel_tasks: runner && runner.max_parallel_tasks > 0 ? String(runner.max_parallel_tasks) : '',
    active: runner?.active ?? true,
  };
}

/** The ready-made command lines the token dialog offers: the runner itself and the same in a container. */
export function buildRunnerCommands(serverUrl: string, token: string): { cli: string; container: string } {
  const server = serverUrl.replace(/\/+$/, '');
  return {
    cli: `GANTRY_RUNNER_TOKEN=${token} gantry runner start --server ${server}`,
    container: `docker run -d --name gantry-runner --restart unless-stopped -v gantry-runner:/var/lib/gantry -e GANTRY_RUNNER_SERVER=${server} -e GANTRY_RUNNER_TOKEN=${token} gantry/gantry runner start`,
  };
}
