import type { Config } from '../config.ts';
import { openRuntime, type Runtime } from '../runtime.ts';

/** An expected command-line failure: printed without a stack trace, exit code 1. */
export class CliError extends Error {}

export interface CliContext {
  print(line: string): void;
  withRuntime(work: (runtime: Runtime) => Promise<void>): Promise<void>;
}

export function createCliContext(loadConfig: () => Config, print: (line: string) => void): CliContext {
  return {
    print,
    async withRuntime(work) {
      const runtime = await openRuntime(loadConfig());
      try {
        await work(runtime);
      } finally {
        await runtime.close();
      }
    },
  };
}
