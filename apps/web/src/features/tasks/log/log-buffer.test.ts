import { describe, expect, it } from 'vitest';
import { LogBuffer, splitRanges, subtractRanges } from './log-buffer.ts';
import type { LogLine } from './log-buffer.ts';

const line = (seq: number): LogLine => ({ seq, time: '2026-01-01T00:00:00.000Z', output: `line ${seq}` });
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => line(from + i));

describe('LogBuffer', () => {
  it('stores lines by sequence number across chunks and knows the length', () => {
    const buffer = new LogBuffer(10);
    expect(buffer.put(lines(0, 25))).toBe(25);
    expect(buffer.length).toBe(25);
    expect(buffer.loaded).toBe(25);
    expect(buffer.getOutput(17)).toBe('line 17');
    expect(buffer.getTime(17)).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(buffer.getOutput(25)).toBeUndefined();
  });

  it('skips lines it already holds (seq de-duplication)', () => {
    const buffer = new LogBuffer(10);
    buffer.put(lines(0, 8));
    expect(buffer.put([{ ...line(3), output: 'replayed' }, ...lines(8, 12)])).toBe(4);
    expect(buffer.getOutput(3)).toBe('line 3');
    expect(buffer.loaded).toBe(12);
  });

  it('reports the unloaded ranges of a span, chunk by chunk', () => {
    const buffer = new LogBuffer(10);
    buffer.put([...lines(0, 10), ...lines(12, 15), ...lines(40, 42)]);
    expect(buffer.missing(0, 50)).toEqual([
      { from: 10, to: 12 },
      { from: 15, to: 40 },
      { from: 42, to: 50 },
    ]);
    expect(buffer.missing(0, 10)).toEqual([]);
    expect(buffer.isLoaded(12, 15)).toBe(true);
  });

  it('appends live lines in order with no gap when they follow the known end', () => {
    const buffer = new LogBuffer(10);
    buffer.put(lines(0, 5));
    expect(buffer.appendLive(lines(5, 9))).toEqual({ added: 4, gaps: [] });
    expect(buffer.length).toBe(9);
  });

  it('ignores a live batch it already loaded from the output API', () => {
    const buffer = new LogBuffer(10);
    buffer.put(lines(0, 20));
    expect(buffer.appendLive(lines(15, 20))).toEqual({ added: 0, gaps: [] });
    expect(buffer.appendLive(lines(18, 23))).toEqual({ added: 3, gaps: [] });
  });

  it('reports the lines skipped between the known end and a live batch as a gap', () => {
    const buffer = new LogBuffer(10);
    buffer.put(lines(0, 5));
    expect(buffer.appendLive(lines(9, 12))).toEqual({ added: 3, gaps: [{ from: 5, to: 9 }] });
    // Holes inside a batch are gaps too.
    expect(buffer.appendLive([line(12), line(14)]).gaps).toEqual([{ from: 13, to: 14 }]);
  });

  it('does not call lazily unloaded lines before the known end a gap', () => {
    const buffer = new LogBuffer(10);
    buffer.put(lines(0, 10));
    buffer.extendTo(1000);
    expect(buffer.appendLive(lines(1000, 1003))).toEqual({ added: 3, gaps: [] });
  });
});

describe('range helpers', () => {
  it('subtracts ranges in flight', () => {
    expect(
      subtractRanges(
        [{ from: 0, to: 100 }],
        [
          { from: 10, to: 20 },
          { from: 90, to: 120 },
        ],
      ),
    ).toEqual([
      { from: 0, to: 10 },
      { from: 20, to: 90 },
    ]);
  });

  it('splits ranges at chunk boundaries', () => {
    expect(splitRanges([{ from: 5, to: 27 }], 10)).toEqual([
      { from: 5, to: 10 },
      { from: 10, to: 20 },
      { from: 20, to: 27 },
    ]);
  });
});
