import type { FastifyBaseLogger } from 'fastify';

interface StoreSweepDeps<T> {
  /** What the sweep does, for its log lines ("retry sweep", "approval sweep", …). */
  name: string;
  /** The items due now, read from the store (a bounded batch; the next round takes the rest). */
  listDue(): Promise<readonly T[]>;
  /** Handles one item; a failure is logged and the round goes on with the next. */
  handle(item: T): Promise<void>;
  /** Log fields naming an item whose handling failed. */
  describe(item: T): Record<string, unknown>;
  logger: FastifyBaseLogger;
  intervalMs: number;
}

/**
 * A per-node sweep of work whose state is in the store (timed-out approvals, due retries, running
 * workflow runs): every `intervalMs` this node reads what is due and handles it one item at a time.
 * Several nodes may sweep one store, so `handle` must claim its item; a restart loses nothing.
 */
export function createStoreSweep<T>(deps: StoreSweepDeps<T>) {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;

  async function round(): Promise<void> {
    for (const item of await deps.listDue())
      await deps
        .handle(item)
        .catch((error: unknown) =>
          deps.logger.error({ err: error, ...deps.describe(item) }, `${deps.name}: item failed`),
        );
  }
  function schedule(): void {
    timer = setTimeout(() => {
      sweeping = round()
        .catch((error: unknown) => deps.logger.error({ err: error }, `${deps.name} failed`))
        .finally(() => {
          sweeping = undefined;
          if (timer) schedule();
        });
    }, deps.intervalMs);
  }

  return {
    /** One round now (tests call it with a clock moved on). */
    round,
    /** Starts this node's sweep. */
    begin(): void {
      if (!timer) schedule();
    },
    /** Stops the sweep and waits for a round under way. */
    async end(): Promise<void> {
      clearTimeout(timer);
      timer = undefined;
      await sweeping;
    },
  };
}
