import { describe, expect, it } from 'vitest';
import { getNiceMax, getStatsStart, listAxisTicks, toStatsDays } from './stats-days.ts';

describe('stats days', () => {
  const now = new Date('2026-03-10T15:00:00Z');

  it('starts the week 7 days and the month 30 days back, today included, and the year a year back', () => {
    expect(getStatsStart('week', now)).toBe('2026-03-04');
    expect(getStatsStart('month', now)).toBe('2026-02-09');
    expect(getStatsStart('year', now)).toBe('2025-03-11');
  });

  it('counts error as failed and totals each day', () => {
    expect(
      toStatsDays([{ date: '2026-03-10', count_by_status: { success: 2, failed: 1, error: 1, stopped: 3 } }]),
    ).toEqual([{ date: '2026-03-10', success: 2, failed: 2, stopped: 3, total: 7 }]);
  });

  it('rounds the axis to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 7, 12, 51, 200].map(getNiceMax)).toEqual([1, 1, 2, 5, 10, 20, 100, 200]);
  });
});

describe('listAxisTicks', () => {
  it('labels the bottom, middle and top lines with whole counts only', () => {
    expect(listAxisTicks(2).map((tick) => tick.label)).toEqual([0, 1, 2]);
    expect(listAxisTicks(1).map((tick) => tick.label)).toEqual([0, undefined, 1]);
    expect(listAxisTicks(5).map((tick) => tick.label)).toEqual([0, undefined, 5]);
    expect(listAxisTicks(50).map((tick) => [tick.fraction, tick.label])).toEqual([
      [0, 0],
      [0.5, 25],
      [1, 50],
    ]);
  });
});
