import { describe, expect, it } from 'vitest';
import { createFailureLogLimiter } from '../src/modules/integrations/failure-log-limiter.ts';

describe('failed webhook calls in the event log', () => {
  it('logs the first failures of a minute per integration, then counts the rest and reports them with the next one logged', () => {
    let now = Date.parse('2026-11-21T10:00:00Z');
    const limiter = createFailureLogLimiter({ clock: { now: () => new Date(now) }, windowMs: 60_000, limit: 3 });
    const decisions = Array.from({ length: 10 }, () => limiter.admit(1));
    expect(decisions.map((d) => d.log)).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(limiter.admit(2)).toEqual({ log: true, suppressed: 0 });
    now += 30_000;
    expect(limiter.admit(1)).toEqual({ log: false, suppressed: 0 });
    now += 30_000;
    expect(limiter.admit(1)).toEqual({ log: true, suppressed: 8 });
    expect(limiter.admit(1)).toEqual({ log: true, suppressed: 0 });
  });
});
