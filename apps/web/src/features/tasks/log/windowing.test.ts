import { describe, expect, it } from 'vitest';
import { computeWindow, getScrollHeight, isAtBottom, scrollTopForLine } from './windowing.ts';

const base = { viewportHeight: 200, lineHeight: 20, overscan: 5 };

describe('computeWindow', () => {
  it('renders the visible lines plus overscan at the top of a long log', () => {
    const w = computeWindow({ ...base, scrollTop: 0, count: 1000 });
    expect(w).toMatchObject({ start: 0, firstVisible: 0, endVisible: 10, end: 15, offsetTop: 0, scrollHeight: 20_000 });
  });

  it('positions the window at the scrolled line, partial lines included', () => {
    const w = computeWindow({ ...base, scrollTop: 1010, count: 1000 });
    expect(w.firstVisible).toBe(50);
    expect(w.endVisible).toBe(61);
    expect(w.start).toBe(45);
    expect(w.end).toBe(66);
    expect(w.offsetTop).toBe(45 * 20);
  });

  it('ends exactly at the last line at the bottom', () => {
    const w = computeWindow({ ...base, scrollTop: 20_000 - 200, count: 1000 });
    expect(w.endVisible).toBe(1000);
    expect(w.end).toBe(1000);
    expect(w.offsetTop + (w.end - w.start) * 20).toBe(w.scrollHeight);
  });

  it('clamps a scrollTop beyond the range (content shrank or not yet grown)', () => {
    const w = computeWindow({ ...base, scrollTop: 99_999, count: 30 });
    expect(w).toMatchObject({ firstVisible: 20, endVisible: 30, end: 30 });
  });

  it('handles logs shorter than the viewport and empty logs', () => {
    expect(computeWindow({ ...base, scrollTop: 0, count: 3 })).toMatchObject({ start: 0, end: 3, scrollHeight: 60 });
    expect(computeWindow({ ...base, scrollTop: 0, count: 0 })).toMatchObject({ start: 0, end: 0, scrollHeight: 0 });
  });

  it('scales the scrollbar past the height cap and still reaches the first and the last line', () => {
    const count = 1_000_000;
    const cap = 100_000;
    const top = computeWindow({ ...base, scrollTop: 0, count, maxScrollHeight: cap });
    expect(top.scrollHeight).toBe(cap);
    expect(top.firstVisible).toBe(0);

    const bottom = computeWindow({ ...base, scrollTop: cap - 200, count, maxScrollHeight: cap });
    expect(bottom.endVisible).toBe(count);
    expect(bottom.end).toBe(count);
    expect(bottom.offsetTop + (bottom.end - bottom.start) * 20).toBeCloseTo(cap, 6);

    const middle = computeWindow({ ...base, scrollTop: (cap - 200) / 2, count, maxScrollHeight: cap });
    expect(middle.firstVisible).toBe(Math.floor((count * 20 - 200) / 2 / 20));
    // Rendered lines sit around the scroll position, inside the scrollable height.
    expect(middle.offsetTop).toBeLessThanOrEqual((cap - 200) / 2);
    expect(middle.offsetTop + (middle.end - middle.start) * 20).toBeLessThanOrEqual(cap);
  });

  it('never renders past the scrollable height near the bottom of a scaled log', () => {
    const cap = 100_000;
    for (const scrollTop of [cap - 200 - 1, cap - 200 - 37, cap - 200 - 99]) {
      const w = computeWindow({ ...base, scrollTop, count: 1_000_000, maxScrollHeight: cap });
      expect(w.offsetTop + (w.end - w.start) * 20).toBeLessThanOrEqual(cap + 1e-6);
      expect(w.end).toBeGreaterThanOrEqual(w.endVisible);
    }
  });
});

describe('scrollTopForLine', () => {
  it('is the inverse of computeWindow, scaled or not', () => {
    for (const maxScrollHeight of [undefined, 100_000]) {
      const opts = { viewportHeight: 200, lineHeight: 20, count: 1_000_000, maxScrollHeight };
      for (const line of [0, 1234, 500_000, 999_990]) {
        const w = computeWindow({ ...opts, overscan: 0, scrollTop: scrollTopForLine(line, opts) });
        expect(w.firstVisible).toBe(line);
      }
    }
  });

  it('clamps to the bottom', () => {
    const opts = { viewportHeight: 200, lineHeight: 20, count: 50 };
    expect(scrollTopForLine(1e9, opts)).toBe(getScrollHeight(50, 20) - 200);
  });
});

describe('isAtBottom', () => {
  it('accepts being within half a line of the end', () => {
    expect(isAtBottom(800, 200, 1000, 20)).toBe(true);
    expect(isAtBottom(791, 200, 1000, 20)).toBe(true);
    expect(isAtBottom(780, 200, 1000, 20)).toBe(false);
  });
});
