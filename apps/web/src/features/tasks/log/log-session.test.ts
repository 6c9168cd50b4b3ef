import { describe, expect, it } from 'vitest';
import type { LogLine } from './log-buffer.ts';
import { TaskLogSession, findLineCount } from './log-session.ts';

/** A fake output API over `count` stored lines, recording every request. */
function fakeStore(initial: number) {
  let count = initial;
  const requests: Array<[number, number]> = [];
  const fetchLines = (offset: number, limit: number): Promise<LogLine[]> => {
    requests.push([offset, limit]);
    const to = Math.min(count, offset + limit);
    return Promise.resolve(
      Array.from({ length: Math.max(0, to - offset) }, (_, i) => ({
        seq: offset + i,
        time: '2026-01-01T00:00:00Z',
        output: `#${offset + i}`,
      })),
    );
  };
  return {
    requests,
    fetchLines,
    grow: (n: number) => (count += n),
  };
}

const immediate = (callback: () => void) => callback();
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('findLineCount', () => {
  it.each([1, 9, 10, 11, 12_345, 1_000_003])('finds %i lines by probing', async (count) => {
    let probes = 0;
    const result = await findLineCount(
      (seq) => {
        probes += 1;
        return Promise.resolve(seq < count);
      },
      Math.min(count, 10),
    );
    expect(result).toBe(count);
    expect(probes).toBeLessThan(80);
  });
});

describe('TaskLogSession', () => {
  it('loads a short log with one request and knows its length', async () => {
    const store = fakeStore(42);
    const session = new TaskLogSession({ fetchLines: store.fetchLines, pageSize: 100, scheduleNotify: immediate });
    await session.start();
    expect(session.countKnown).toBe(true);
    expect(session.buffer.length).toBe(42);
    expect(store.requests).toEqual([[0, 100]]);
  });

  it('shows the first lines of a long log, then probes the count and loads other pages only when asked', async () => {
    const store = fakeStore(1_000_000);
    const session = new TaskLogSession({ fetchLines: store.fetchLines, pageSize: 5000, scheduleNotify: immediate });
    await session.start();
    expect(session.buffer.length).toBe(1_000_000);
    expect(session.buffer.loaded).toBe(5000);
    // A small first request for the first screen, then the rest of the first chunk.
    expect(store.requests.filter(([, limit]) => limit > 1)).toEqual([
      [0, 1000],
      [1000, 4000],
    ]);

    session.ensure(999_950, 1_000_000);
    session.ensure(999_990, 1_000_000);
    await settle();
    expect(store.requests.filter(([, limit]) => limit > 1).slice(2)).toEqual([[995_000, 5000]]);
    expect(session.buffer.getOutput(999_999)).toBe('#999999');
  });

  it('appends live lines, skipping the ones loaded already, and fetches a gap', async () => {
    const store = fakeStore(30);
    const session = new TaskLogSession({ fetchLines: store.fetchLines, pageSize: 100, scheduleNotify: immediate });
    await session.start();
    store.grow(20);
    // Lines 25..34 arrive live: 25..29 are known, 30..34 are new.
    session.appendLive(
      Array.from({ length: 10 }, (_, i) => ({ seq: 25 + i, time: '2026-01-01T00:00:00Z', output: `live ${25 + i}` })),
    );
    expect(session.buffer.getOutput(25)).toBe('#25');
    expect(session.buffer.getOutput(30)).toBe('live 30');
    // Then 45..49 arrive after a reconnect: 35..44 were never sent.
    session.appendLive(
      Array.from({ length: 5 }, (_, i) => ({ seq: 45 + i, time: '2026-01-01T00:00:00Z', output: `live ${45 + i}` })),
    );
    await settle();
    expect(store.requests.at(-1)).toEqual([35, 10]);
    expect(session.buffer.isLoaded(0, 50)).toBe(true);
    expect(session.buffer.length).toBe(50);
  });

  it('does not fetch a gap that a request in flight already covers', async () => {
    const store = fakeStore(30);
    const session = new TaskLogSession({ fetchLines: store.fetchLines, pageSize: 100, scheduleNotify: immediate });
    const started = session.start();
    // A live line arrives before the first page came back.
    session.appendLive([{ seq: 30, time: '2026-01-01T00:00:00Z', output: 'live 30' }]);
    await started;
    expect(store.requests).toEqual([[0, 100]]);
    expect(session.buffer.isLoaded(0, 31)).toBe(true);
  });

  it('catches up with the stored tail after a reconnect', async () => {
    const store = fakeStore(10);
    const session = new TaskLogSession({ fetchLines: store.fetchLines, pageSize: 100, scheduleNotify: immediate });
    await session.start();
    store.grow(250);
    await session.syncTail();
    expect(session.buffer.length).toBe(260);
    expect(session.buffer.isLoaded(0, 260)).toBe(true);
  });

  it('tells listeners at most once per scheduled frame', async () => {
    const store = fakeStore(10);
    const frames: Array<() => void> = [];
    const session = new TaskLogSession({
      fetchLines: store.fetchLines,
      pageSize: 100,
      scheduleNotify: (callback) => frames.push(callback),
    });
    let calls = 0;
    session.subscribe(() => (calls += 1));
    await session.start();
    for (let i = 0; i < 100; i++) session.appendLive([{ seq: 10 + i, time: '2026-01-01T00:00:00Z', output: 'x' }]);
    expect(frames.length).toBe(1);
    const before = session.getVersion();
    frames.shift()?.();
    expect(calls).toBe(1);
    expect(session.getVersion()).toBe(before + 1);
  });

  it('keeps the error of a failed request and loads again on retry', async () => {
    let fail = true;
    const store = fakeStore(5);
    const session = new TaskLogSession({
      fetchLines: (offset, limit) => (fail ? Promise.reject(new Error('offline')) : store.fetchLines(offset, limit)),
      pageSize: 100,
      scheduleNotify: immediate,
    });
    await session.start();
    expect(session.error).toBeInstanceOf(Error);
    fail = false;
    session.retry();
    await settle();
    expect(session.error).toBeNull();
    expect(session.buffer.length).toBe(5);
  });
});
