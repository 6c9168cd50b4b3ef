import type { FastifyBaseLogger } from 'fastify';
import { toTimestamp, type Clock } from '../clock.ts';
import type { NodesRepository } from './nodes.repository.ts';

export interface NodePresenceOptions {
  nodeId: string;
  nodes: NodesRepository;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Closes the in-process tasks of server processes that are not among the alive ones. */
  closeOrphanedTasks(aliveNodes: ReadonlySet<string>): Promise<number>;
  /**
   * Runs after every sweep: the queue is looked at again, so a task whose node died between queuing
   * it and starting it still starts, and requests stored for this node's tasks are carried out even
   * when their message through Redis was lost.
   */
  onSwept?(): Promise<void>;
  heartbeatMs?: number;
  /** A node silent this long is gone. */
  silentMs?: number;
}

/**
 * Each server process of a cluster beats in the shared store; every beat also looks for processes
 * that went silent and closes the tasks they were running, so no task stays "running" forever
 * because the machine under it died.
 */
export function createNodePresence(options: NodePresenceOptions) {
  // A dead node is noticed within silentMs + heartbeatMs (13 s); a live one would have to miss three beats in a row.
  const heartbeatMs = options.heartbeatMs ?? 3_000;
  const silentMs = options.silentMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;

  async function beatAndSweep(): Promise<number> {
    const now = options.clock.now();
    await options.nodes.beat(options.nodeId, toTimestamp(now));
    const aliveSince = toTimestamp(new Date(now.getTime() - silentMs));
    const alive = await options.nodes.listAliveIds(aliveSince);
    const closed = await options.closeOrphanedTasks(alive);
    await options.nodes.removeSilent(aliveSince);
    await options.onSwept?.();
    return closed;
  }

  return {
    beatAndSweep,
    /** Beats at once (closing what silent nodes left) and then every heartbeat interval. */
    async start(): Promise<number> {
      const closed = await beatAndSweep();
      // A beat still under way (a slow store, processes being killed) is not joined by the next one:
      // two sweeps at once would close the same silent node's tasks twice over.
      let underWay = false;
      timer = setInterval(() => {
        if (underWay) return;
        underWay = true;
        beatAndSweep()
          .catch((error: unknown) => options.logger.error({ err: error }, 'node heartbeat failed'))
          .finally(() => (underWay = false));
      }, heartbeatMs);
      timer.unref();
      return closed;
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await options.nodes.remove(options.nodeId);
    },
  };
}
