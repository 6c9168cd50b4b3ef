import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { loadRunnerConfig, type RunnerConfig } from '../config.ts';
import { createRunnerAgent, createRunnerClient } from '@gantry/runner';
import { CliError } from './cli-context.ts';

interface RunnerOptions {
  server?: string;
  token?: string;
  tokenFile?: string;
  registrationToken?: string;
  workDir?: string;
  name?: string;
  webhook?: string;
  maxParallelTasks?: string;
  projectId?: string;
  pollWait?: string;
}

/**
 * Every user of the machine can read a process's command line (ps, /proc/<pid>/cmdline), so the
 * runner's secrets are refused there and read from the environment or a 0600 file instead.
 */
function refuseSecretsOnCommandLine(options: RunnerOptions): void {
  if (options.token !== undefined)
    throw new CliError(
      '--token would show the runner token to every user of this machine (ps): set GANTRY_RUNNER_TOKEN or use --token-file FILE',
    );
  if (options.registrationToken !== undefined)
    throw new CliError(
      '--registration-token would show the registration token to every user of this machine (ps): set GANTRY_RUNNER_REGISTRATION_TOKEN',
    );
}

function readConfig(options: RunnerOptions, env: NodeJS.ProcessEnv): RunnerConfig & { server: string } {
  refuseSecretsOnCommandLine(options);
  const config = loadRunnerConfig(
    { server: options.server, token_file: options.tokenFile, work_dir: options.workDir },
    env,
  );
  if (!config.server)
    throw new CliError('The server URL is required: --server https://gantry.example.com (or GANTRY_RUNNER_SERVER)');
  if (!/^https?:\/\//i.test(config.server)) throw new CliError('The server URL must start with http:// or https://');
  return { ...config, server: config.server };
}

function readToken(config: RunnerConfig): string | undefined {
  if (config.token) return config.token;
  if (!config.token_file) return undefined;
  try {
    return readFileSync(config.token_file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`${name} must be a whole number of 0 or more`);
  return Number(value);
}

async function register(
  config: RunnerConfig & { server: string },
  options: RunnerOptions,
  print: (line: string) => void,
): Promise<string> {
  if (!config.registration_token)
    throw new CliError('A registration token is required: set GANTRY_RUNNER_REGISTRATION_TOKEN');
  const maxParallelTasks = integerOption(options.maxParallelTasks, '--max-parallel-tasks');
  const projectId = integerOption(options.projectId, '--project-id');
  const token = await createRunnerClient(config.server, undefined).register({
    registration_token: config.registration_token,
    ...(options.name ? { name: options.name } : {}),
    ...(options.webhook ? { webhook: options.webhook } : {}),
    ...(maxParallelTasks !== undefined ? { max_parallel_tasks: maxParallelTasks } : {}),
    ...(projectId ? { project_id: projectId } : {}),
  });
  if (config.token_file) {
    mkdirSync(path.dirname(path.resolve(config.token_file)), { recursive: true });
    writeFileSync(config.token_file, `${token}\n`, { mode: 0o600 });
    print(`Runner registered; its token is in ${config.token_file}.`);
  } else {
    print('Runner registered. Its token (shown only now):');
    print(token);
  }
  return token;
}

/** `gantry runner start|register|unregister`: the runner needs the server's URL and its token, never a database. */
export function registerRunnerCommands(program: Command, env: NodeJS.ProcessEnv, print: (line: string) => void): void {
  const runner = program.command('runner').description('run tasks for a Gantry server on this machine');
  const connection = (command: Command) =>
    command
      .option('--server <url>', 'URL of the Gantry server')
      .option('--token-file <file>', 'file holding the runner token (or set GANTRY_RUNNER_TOKEN)')
      .addOption(new Option('--token <token>').hideHelp())
      .addOption(new Option('--registration-token <token>').hideHelp());

  connection(runner.command('start'))
    .description('connect to the server and run the tasks it hands out')
    .option('--work-dir <dir>', 'where checkouts and temporary task files live')
    .option('--poll-wait <seconds>', 'how long the server may hold a poll open')
    .action(async (options: RunnerOptions) => {
      const config = readConfig(options, env);
      const token =
        readToken(config) ?? (config.registration_token ? await register(config, options, print) : undefined);
      if (!token) throw new CliError('The runner token is required: GANTRY_RUNNER_TOKEN or --token-file FILE');
      mkdirSync(config.work_dir, { recursive: true });
      const pollWait = integerOption(options.pollWait, '--poll-wait');
      const agent = createRunnerAgent({
        client: createRunnerClient(config.server, token),
        workDir: config.work_dir,
        baseEnv: config.task_base_env,
        print,
        ...(pollWait !== undefined ? { pollWaitSeconds: pollWait } : {}),
      });
      const stop = () => agent.stop();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        print(`Connecting to ${config.server}.`);
        await agent.run();
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });

  connection(runner.command('register'))
    .description('create a runner on the server with its registration token and print (or store) the runner token')
    .option('--name <name>', 'runner name')
    .option('--webhook <url>', 'URL the server calls when it hands this runner a task')
    .option('--max-parallel-tasks <n>', 'tasks at once (0 = unlimited)')
    .option('--project-id <id>', 'make it a project runner')
    .action(async (options: RunnerOptions) => {
      await register(readConfig(options, env), options, print);
    });

  connection(runner.command('unregister'))
    .description('delete this runner on the server')
    .action(async (options: RunnerOptions) => {
      const config = readConfig(options, env);
      const token = readToken(config);
      if (!token) throw new CliError('The runner token is required: GANTRY_RUNNER_TOKEN or --token-file FILE');
      await createRunnerClient(config.server, token).unregister();
      print('Runner unregistered.');
    });
}
