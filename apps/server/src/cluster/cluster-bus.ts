import { createHmac, timingSafeEqual } from 'node:crypto';
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
  // A user's administrator flag changed: their websockets see every project, or only their own, at once.
  z.object({
    kind: z.literal('admin'),
    user_id: z.number().int(),
    admin: z.boolean(),
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

const Envelope = z.object({ node: z.string(), sent: z.number(), payload: ClusterMessage });
/** What travels on the channel: the envelope's text and its HMAC under the nodes' shared key. */
const SignedEnvelope = z.object({ body: z.string(), mac: z.string() });

/** How old a message may be when it arrives: one replayed later (or from a node whose clock is far off) is dropped. */
const MAX_MESSAGE_AGE_MS = 5 * 60_000;

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
  /**
   * The key every node derives from the shared secret key: messages are signed with it, and one that
   * is not (published by anyone else who reaches Redis) is dropped, so nobody can stop or confirm a
   * task, or show users log lines, by writing to the channel.
   */
  signingKey: Buffer;
  logger: FastifyBaseLogger;
}

const loadRedis = loadOnDemand<typeof import('ioredis')>('ioredis');

export function createClusterBus({ url, nodeId, readClusterId, signingKey, logger }: ClusterBusOptions): ClusterBus {
  const sign = (body: string) => createHmac('sha256', signingKey).update(body).digest();
  const isSigned = (body: string, mac: string) => {
    const given = Buffer.from(mac, 'base64');
    const expected = sign(body);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
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
      const signed = SignedEnvelope.parse(JSON.parse(raw));
      if (!isSigned(signed.body, signed.mac)) {
        logger.warn('Ignoring a cluster message not signed with the shared key');
        return;
      }
      envelope = Envelope.parse(JSON.parse(signed.body));
    } catch (error) {
      logger.warn({ err: error }, 'Ignoring a malformed cluster message');
      return;
    }
    if (envelope.node === nodeId) return;
    if (Math.abs(Date.now() - envelope.sent) > MAX_MESSAGE_AGE_MS) {
      logger.warn(
        { node: envelope.node },
        'Ignoring a cluster message sent more than 5 minutes ago (or a clock far off)',
      );
      return;
    }
    for (const handler of handlers) handler(envelope.payload);
  });

  return {
    nodeId,
    ready,
    publish(message) {
      if (publisher.status !== 'ready') return;
      // Chained on one promise, messages leave in the order they were published.
      void channel
        .then((name) => {
          const body = JSON.stringify({ node: nodeId, sent: Date.now(), payload: message });
          return publisher.publish(name, JSON.stringify({ body, mac: sign(body).toString('base64') }));
        })
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
