import { describe, expect, it } from 'vitest';
import { HOST_STATUSES, createEmptyHostCounts, type HostCounts } from '@gantry/contract';
import { formatResultDuration, getCountParts, getHostOutcome, getRecapParts } from './host-results.ts';

const counts = (fields: Partial<HostCounts>): HostCounts => ({ ...createEmptyHostCounts(), ...fields });

describe('host results', () => {
  it('builds the recap line from the outcomes that have hosts, in ansible order', () => {
    expect(getRecapParts({ ok: 12, changed: 3, failed: 1, unreachable: 0 })).toEqual([
      { status: 'ok', count: 12 },
      { status: 'changed', count: 3 },
      { status: 'failed', count: 1 },
    ]);
    expect(getRecapParts(null)).toEqual([]);
    expect(getRecapParts({ ok: 0, changed: 0, failed: 0, unreachable: 2 })).toEqual([
      { status: 'unreachable', count: 2 },
    ]);
  });

  it('counts a host by its worst status', () => {
    expect(getHostOutcome(counts({ ok: 3, changed: 1, unreachable: 1 }))).toBe('unreachable');
    expect(getHostOutcome(counts({ ok: 3, changed: 1, failed: 1 }))).toBe('failed');
    expect(getHostOutcome(counts({ ok: 3, changed: 1, ignored: 1 }))).toBe('changed');
    expect(getHostOutcome(counts({ ok: 3, skipped: 2, rescued: 1 }))).toBe('ok');
  });

  it('shows only the statuses a host has results in', () => {
    expect(getCountParts(counts({ ok: 2, skipped: 1 }), HOST_STATUSES)).toEqual([
      { status: 'ok', count: 2 },
      { status: 'skipped', count: 1 },
    ]);
  });

  it('formats durations for people', () => {
    expect(formatResultDuration(0)).toBe('0 ms');
    expect(formatResultDuration(950)).toBe('950 ms');
    expect(formatResultDuration(12_345)).toBe('12.3 s');
    expect(formatResultDuration(125_000)).toBe('2 min 5 s');
  });
});
