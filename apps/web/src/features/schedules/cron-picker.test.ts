import { describe, expect, it } from 'vitest';
import { EMPTY_PICKER, TIMINGS, parseCron, toCron } from './cron-picker.ts';

describe('parseCron', () => {
  it('derives the timing from which fields are not wildcards', () => {
    expect(parseCron('* * * * *')?.timing).toBe('hourly');
    expect(parseCron('15 * * * *')).toMatchObject({ timing: 'hourly', minutes: [15] });
    expect(parseCron('0 3,1 * * *')).toMatchObject({ timing: 'daily', minutes: [0], hours: [1, 3] });
    expect(parseCron('30 9 * * 1,5')).toMatchObject({ timing: 'weekly', hours: [9], weekdays: [1, 5] });
    expect(parseCron('0 0 1,15 * *')).toMatchObject({ timing: 'monthly', days: [1, 15] });
    expect(parseCron('0 12 25 12 *')).toMatchObject({ timing: 'yearly', days: [25], months: [12] });
    expect(parseCron('0 0 * 6 *')).toMatchObject({ timing: 'yearly', days: [], months: [6] });
  });

  it('reads extra spaces, duplicate values and 7 as Sunday', () => {
    expect(parseCron('  5,5,0   * * *  7 ')).toMatchObject({ timing: 'weekly', minutes: [0, 5], weekdays: [0] });
  });

  it('leaves to raw mode what the picker cannot show', () => {
    for (const cron of [
      '@daily',
      '*/5 * * * *',
      '0 1-5 * * *',
      '7 * * * *',
      '0 0 1 * 1',
      '0 0 * * MON',
      '0 24 * * *',
      '0 0 0 * *',
      '0 0 * 13 *',
      '* * * *',
      'a b c d e',
      '',
    ]) {
      expect(parseCron(cron), cron).toBeUndefined();
    }
  });
});

describe('toCron', () => {
  it('writes the fields the timing shows and wildcards for the rest', () => {
    const everything = { minutes: [5, 0], hours: [23], days: [31], months: [2], weekdays: [6] };
    expect(toCron({ ...everything, timing: 'hourly' })).toBe('0,5 * * * *');
    expect(toCron({ ...everything, timing: 'daily' })).toBe('0,5 23 * * *');
    expect(toCron({ ...everything, timing: 'weekly' })).toBe('0,5 23 * * 6');
    expect(toCron({ ...everything, timing: 'monthly' })).toBe('0,5 23 31 * *');
    expect(toCron({ ...everything, timing: 'yearly' })).toBe('0,5 23 31 2 *');
  });

  it('makes an empty picker fire every minute, the default of a new schedule', () => {
    expect(toCron(EMPTY_PICKER)).toBe('* * * * *');
  });

  it('round-trips every picker-made expression back to the same picker', () => {
    for (const timing of TIMINGS) {
      const picker = { timing, minutes: [0, 30], hours: [8, 20], days: [1], months: [1, 7], weekdays: [1, 2, 3] };
      const cron = toCron(picker);
      expect(toCron(parseCron(cron) ?? EMPTY_PICKER), cron).toBe(cron);
    }
  });
});
