import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config.ts';
import { StoreUnavailableError } from '../db/store-unavailable.ts';
import { AppError } from '../errors.ts';
import { openMigratedStore } from '../runtime.ts';
import { startServer } from '../server.ts';
import { GANTRY_VERSION } from '../version.ts';
import { RunnerRefused } from '@gantry/runner';
import { CliError, createCliContext } from './cli-context.ts';
import { registerSecretsCommands } from './secrets-commands.ts';
import { registerStoreCommands } from './store-commands.ts';
import { registerUserCommands } from './user-commands.ts';
import { registerRunnerCommands } from './runner-commands.ts';
import { registerWorkflowCommands } from './workflow-commands.ts';

/** The `gantry` command line. Returns the exit code instead of exiting, so tests can run it in-process. */
export interface CliIo {
  print(line: string): void;
  printError(line: string): void;
  env: NodeJS.ProcessEnv;
  /** Output goes to a terminal. */
  interactive?: boolean;
}

const processIo: CliIo = {
  print: console.log,
  printError: console.error,
  env: process.env,
  interactive: process.stdout.isTTY === true,
};

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const { print, printError } = io;
  const program = new Command('gantry')
    .description('Gantry: run Ansible, Terraform/OpenTofu, Pulumi and script tasks from a web UI')
    .version(GANTRY_VERSION, '-v, --version', 'print the version')
    .option('-c, --config <file>', 'JSON configuration file (instead of GANTRY_CONFIG)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => print(s.trimEnd()), writeErr: (s) => printError(s.trimEnd()) });
  const readConfig = () => {
    const file = program.opts<{ config?: string }>().config;
    return loadConfig({}, file ? { ...io.env, GANTRY_CONFIG: file } : io.env);
  };
  const ctx = createCliContext(readConfig, print);

  program
    .command('server')
    .alias('service')
    .description('run the web server, API and task engine')
    .action(async () => {
      // A person at a terminal reads plain lines; a service manager or container gets JSON lines only.
      const app = await startServer(readConfig(), io.interactive ? print : undefined);
      await new Promise<void>((resolve) => {
        const stop = () => void app.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const { connection, applied } = await openMigratedStore(readConfig());
      await connection.db.destroy();
      print(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    });

  program
    .command('version')
    .description('print the version')
    .action(() => print(GANTRY_VERSION));

  registerUserCommands(program, ctx);
  registerRunnerCommands(program, io.env, print);
  registerSecretsCommands(program, readConfig, print);
  registerStoreCommands(program, print);
  registerWorkflowCommands(program, io.env, print);

  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    // Expected failures are the operator's to fix: one line, no stack trace.
    if (
      error instanceof CliError ||
      error instanceof RunnerRefused ||
      error instanceof AppError ||
      error instanceof ConfigError ||
      error instanceof StoreUnavailableError
    ) {
      printError(error.message);
      return 1;
    }
    printError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
