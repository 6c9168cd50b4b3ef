import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { COMMIT_CHECK_INTERVALS } from '@gantry/contract';
import { getCheckIntervalLabel, listCheckIntervals } from './check-intervals.ts';

describe('commit check intervals', () => {
  it('offers the standard intervals, plus a saved expression that is none of them', () => {
    expect(listCheckIntervals('@hourly')).toEqual([...COMMIT_CHECK_INTERVALS]);
    expect(listCheckIntervals('*/15 * * * *')).toEqual([...COMMIT_CHECK_INTERVALS, '*/15 * * * *']);
  });

  it('names the standard intervals from the schedules catalogue and shows any other expression as itself', () => {
    const t = i18next.t.bind(i18next);
    expect(COMMIT_CHECK_INTERVALS.map((interval) => getCheckIntervalLabel(t, interval))).toEqual([
      'every minute',
      'every 5 minutes',
      'every 10 minutes',
      'every hour',
      'every 24 hours',
    ]);
    expect(getCheckIntervalLabel(t, '*/15 * * * *')).toBe('*/15 * * * *');
  });
});
