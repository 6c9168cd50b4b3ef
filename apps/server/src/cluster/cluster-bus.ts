import type { FastifyBaseLogger } from 'fastify';
import { loadOnDemand } from '../load-on-demand.ts';
import { z } from 'zod';

const LogLineMessage = z.object({ seq: z.number().int(), time: z.string(), output: z.string() });

/** What one Gantry node tells the others: the live events of its tasks, and requests for tasks another node runs. */
const ClusterMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('update'),
    member_ids: z.array(z.number().int()),
    message: z.object({ task_id: z.number().int(), project_id: z.number().int(), status: z.string() }).passthrough(),
    finished: z.boolean(),
  }),
  z.object({
    kind: z.literal('control'),
    task_id: z.number().int(),
    action: z.enum(['stop', 'force_stop', 'confirm', 'reject']),
  }),
  z.object({
    kind: z.literal('runner'),
    runner_id: z.number().int(),
    task_id: z.number().int(),
    change: z.enum(['assigned', 'changed', 'force_stop']),
  }),
  // A session or token ended, or all of a user's but one: their websockets close on every node.
  z.object({
    kind: z.literal('credentials'),
    key: z.string().optional(),
    user_id: z.number().int().optional(),
    except: z.string().optional(),
  }),
  // A project's team changed: every node updates who receives its live events.
  z.object({
    kind: z.literal('members'),
    project_id: z.number().int(),
    removed_user_id: z.number().int().optional(),
  }),
  z.object({
    kind: z.literal('lines'),
    member_ids: z.array(z.number().int()),
    task: z.object({ id: z.number().int(), project_id: z.number().int() }),
    lines: z.array(LogLineMessage),
  }),
]);
type ClusterMessage = z.infer<typeof ClusterMessage>;

const Envelope = z.object({ node: z.string(), payload: ClusterMessage });

export interface ClusterBus {
  readonly nodeId: string;
  /** Settles once this node listens to the others. */
  readonly ready: Promise<void>;
  publish(message: ClusterMessage): void;
  /** Messages from the other nodes; a node never hears its own. */
  onMessage(handler: (message: ClusterMessage) => void): void;
  close(): Promise<void>;
}

/**
 * Redis pub/sub between the Gantry nodes that share one PostgreSQL or MySQL store. Delivery is at
 * most once: a listener that misses lines notices the gap in sequence numbers and reads them from
 * the shared store, so Redis being slow or away never loses or reorders a line.
 */
export interface ClusterBusOptions {
  url: string;
  nodeId: string;
  /** The store's cluster identity: the nodes of one store share a channel named after it. */
  readClusterId(): Promise<string>;
  logger: FastifyBaseLogger;
}

const loadRedis = loadOnDemand<typeof import('ioredis')>('ioredis');

export function createClusterBus({ url, nodeId, readClusterId, logger }: ClusterBusOptions): ClusterBus {
  const { Redis } = loadRedis();
  // While Redis is away, events are dropped at once rather than queued: listeners recover lines
  // from the store, and task requests are also read from it (the node sweep), so nothing depends on them.
  const publisher = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  // Subscribes once connected: a SUBSCRIBE queued ahead of the connection's ready check breaks that
  // check, and the reconnection that follows can lose the subscription.
  const subscriber = new Redis(url, { lazyConnect: true });
  for (const connection of [publisher, subscriber]) {
    connection.on('error', (error: Error) => logger.warn({ err: error }, 'Redis connection error'));
  }
  let away = false;
  publisher.on('close', () => {
    if (!away) logger.warn('Redis is away: live events of the other nodes are not delivered until it is back');
    away = true;
  });
  publisher.on('ready', () => {
    if (away) logger.info('Redis is back: live events of the other nodes are delivered again');
    away = false;
  });
  const channel = readClusterId().then((clusterId) => `gantry:${clusterId}`);
  let subscribed = () => {};
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  // On every (re)connection, not only the first: Redis may be away when the node starts and come
  // back later (a second SUBSCRIBE of the same channel changes nothing).
  subscriber.on('ready', () => {
    channel
      .then((name) => subscriber.subscribe(name))
      .then(() => subscribed())
      .catch((error: unknown) => logger.error({ err: error }, "Could not subscribe to the other nodes' live events"));
  });
  // A failed first attempt is reported by the error listener; the connection keeps retrying.
  subscriber.connect().catch(() => undefined);

  const handlers: ((message: ClusterMessage) => void)[] = [];
  subscriber.on('message', (_channel: string, raw: string) => {
    let envelope: z.infer<typeof Envelope>;
    try {
      envelope = Envelope.parse(JSON.parse(raw));
    } catch (error) {
      logger.warn({ err: error }, 'Ignoring a malformed cluster message');
      return;
    }
    if (envelope.node === nodeId) return;
    for (const handler of handlers) handler(envelope.payload);
  });

  return {
    nodeId,
    ready,
    publish(message) {
      if (publisher.status !== 'ready') return;
      // Chained on one promise, messages leave in the order they were published.
      void channel
        .then((name) => publisher.publish(name, JSON.stringify({ node: nodeId, payload: message })))
        .catch((error: unknown) => logger.warn({ err: error }, 'Could not publish to the other nodes'));
    },
    onMessage(handler) {
      handlers.push(handler);
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
