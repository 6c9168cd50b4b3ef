import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createNodePresence } from '../src/cluster/node-presence.ts';
import type { NodesRepository } from '../src/cluster/nodes.repository.ts';

describe('node presence', () => {
  it('a beat still under way is not joined by the next one: a silent node is swept once at a time', async () => {
    let sweeps = 0;
    let overlapping = 0;
    let underWay = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const nodes = {
      beat: async () => undefined,
      listAliveIds: async () => new Set(['a']),
      removeSilent: async () => undefined,
      remove: async () => undefined,
    } as unknown as NodesRepository;
    const presence = createNodePresence({
      nodeId: 'a',
      nodes,
      clock: { now: () => new Date() },
      logger: pino({ level: 'silent' }),
      heartbeatMs: 5,
      closeOrphanedTasks: async () => {
        sweeps += 1;
        underWay += 1;
        if (underWay > 1) overlapping += 1;
        // The first beat is start()'s own; the first of the interval hangs, as on a store that stalls.
        if (sweeps === 2) await held;
        underWay -= 1;
        return 0;
      },
    });
    await presence.start();
    await expect.poll(() => sweeps).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sweeps).toBe(2);
    release();
    await expect.poll(() => sweeps).toBeGreaterThan(3);
    await presence.stop();
    expect(overlapping).toBe(0);
  });
});
