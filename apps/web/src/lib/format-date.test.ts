import { describe, expect, it } from 'vitest';
import { DASH, formatDate, formatDuration } from './format-date.ts';

const now = new Date(2025, 4, 20, 15, 30, 0);

describe('formatDate', () => {
  it('shows a dash for missing or invalid values', () => {
    expect(formatDate(null, { now })).toBe(DASH);
    expect(formatDate(undefined, { now })).toBe(DASH);
    expect(formatDate('', { now })).toBe(DASH);
    expect(formatDate('not a date', { now })).toBe(DASH);
  });

  it('shows relative time plus HH:mm for a time earlier today', () => {
    expect(formatDate(new Date(2025, 4, 20, 15, 25, 0), { locale: 'en', now })).toBe('5 minutes ago (15:25)');
    expect(formatDate(new Date(2025, 4, 20, 12, 31, 0), { locale: 'en', now })).toBe('3 hours ago (12:31)');
    expect(formatDate(new Date(2025, 4, 20, 15, 29, 50), { locale: 'en', now })).toBe('now (15:29)');
  });

  it('localises the relative part', () => {
    expect(formatDate(new Date(2025, 4, 20, 15, 25, 0), { locale: 'de', now })).toBe('vor 5 Minuten (15:25)');
  });

  it('shows the localised date with HH:mm for another day', () => {
    const date = new Date(2025, 4, 19, 9, 5, 0);
    expect(formatDate(date, { locale: 'en-US', now })).toBe('5/19/2025 09:05');
    expect(formatDate(date, { locale: 'de', now })).toBe('19.5.2025 09:05');
  });

  it('accepts RFC 3339 strings', () => {
    const iso = new Date(2025, 0, 2, 8, 0, 0).toISOString();
    expect(formatDate(iso, { locale: 'en-US', now })).toBe('1/2/2025 08:00');
  });
});

describe('formatDuration', () => {
  it('formats milliseconds into hours, minutes and seconds', () => {
    expect(formatDuration(0, { locale: 'en' })).toBe('0s');
    expect(formatDuration(45_900, { locale: 'en' })).toBe('45s');
    expect(formatDuration(125_000, { locale: 'en' })).toBe('2m 5s');
    expect(formatDuration(3_600_000 + 120_000, { locale: 'en' })).toBe('1h 2m');
  });

  it('measures a start and end pair, a missing end meaning now', () => {
    const start = new Date(2025, 4, 20, 15, 29, 0).toISOString();
    expect(formatDuration([start, new Date(2025, 4, 20, 15, 29, 30).toISOString()], { locale: 'en' })).toBe('30s');
    expect(formatDuration([start, null], { locale: 'en', now })).toBe('1m');
  });

  it('shows a dash without a value or a start', () => {
    expect(formatDuration(null)).toBe(DASH);
    expect(formatDuration([null, new Date().toISOString()])).toBe(DASH);
  });
});
