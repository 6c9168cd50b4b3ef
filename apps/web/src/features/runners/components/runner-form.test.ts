import { describe, expect, it } from 'vitest';
import { buildRunnerCommands, getRunnerFormDefaults, runnerFormSchema } from './runner-form.ts';

describe('runner form', () => {
  it('sends an empty limit as 0 and refuses negative or fractional limits with the seed messages', () => {
    expect(runnerFormSchema.parse({ name: 'r1', webhook: '', max_parallel_tasks: '', active: true })).toMatchObject({
      max_parallel_tasks: 0,
    });
    expect(runnerFormSchema.parse({ name: 'r1', webhook: '', max_parallel_tasks: '4', active: true })).toMatchObject({
      max_parallel_tasks: 4,
    });
    expect(runnerFormSchema.safeParse({ name: 'r1', max_parallel_tasks: '-1' }).error?.issues[0]?.message).toBe(
      'Must be 0 or greater',
    );
    expect(runnerFormSchema.safeParse({ name: 'r1', max_parallel_tasks: '1.5' }).error?.issues[0]?.message).toBe(
      'Must be integer',
    );
    expect(runnerFormSchema.safeParse({ name: ' ', max_parallel_tasks: '' }).error?.issues[0]?.message).toBe(
      'Name is required',
    );
  });

  it('shows an unlimited runner with an empty limit field', () => {
    expect(
      getRunnerFormDefaults({
        id: 1,
        project_id: null,
        name: 'r',
        webhook: '',
        max_parallel_tasks: 0,
        active: true,
        touched: null,
      }).max_parallel_tasks,
    ).toBe('');
  });

  it('builds the runner and container command lines for the server and token', () => {
    const commands = buildRunnerCommands('https://gantry.example.com/', 'tok-1');
    expect(commands.cli).toBe('GANTRY_RUNNER_TOKEN=tok-1 gantry runner start --server https://gantry.example.com');
    expect(commands.container).toContain(
      '-e GANTRY_RUNNER_SERVER=https://gantry.example.com -e GANTRY_RUNNER_TOKEN=tok-1',
    );
    // The image deploy/container/build.sh builds: its entry point is `gantry`, its checkouts live in the volume.
    expect(commands.container).toBe(
      'docker run -d --name gantry-runner --restart unless-stopped -v gantry-runner:/var/lib/gantry -e GANTRY_RUNNER_SERVER=https://gantry.example.com -e GANTRY_RUNNER_TOKEN=tok-1 gantry/gantry runner start',
    );
  });
});
