import type { Command } from 'commander';
import { StoreCopyError, copyStore, locateStore } from '../db/store-copy.ts';
import { CliError } from './cli-context.ts';

/** `gantry store copy`: moves a whole installation between SQLite, PostgreSQL and MySQL/MariaDB. */
export function registerStoreCommands(program: Command, print: (line: string) => void): void {
  const store = program.command('store').description('move an installation between databases');
  store
    .command('copy')
    .description('copy every user, project, resource, task and log to an empty store (stop the server first)')
    .requiredOption('--from <store>', 'source: a SQLite file path, or a postgres:// or mysql:// URL')
    .requiredOption('--to <store>', 'target, empty: a SQLite file path, or a postgres:// or mysql:// URL')
    .action(async (flags: { from: string; to: string }) => {
      try {
        await copyStore(locateStore(flags.from), locateStore(flags.to), print);
      } catch (error) {
        if (error instanceof StoreCopyError) throw new CliError(error.message);
        throw error;
      }
    });
}
