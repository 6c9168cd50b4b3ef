import type { Clock } from '../../clock.ts';

/**
 * Counts failed sign-ins per client address in a sliding window. Only the address that keeps
 * failing is refused, so one attacker cannot lock everyone else out of an account.
 */
export function createLoginThrottle(options: { maxFailures: number; windowMs: number; clock: Clock }) {
  const failures = new Map<string, number[]>();

  function recent(address: string): number[] {
    const cutoff = options.clock.now().getTime() - options.windowMs;
    const kept = (failures.get(address) ?? []).filter((t) => t > cutoff);
    if (kept.length === 0) failures.delete(address);
    else failures.set(address, kept);
    return kept;
  }

  return {
    /** Seconds until the address may try again, or 0 when it may try now. */
    retryAfterSeconds(address: string): number {
      const times = recent(address);
      if (times.length < options.maxFailures) return 0;
      const oldest = times[times.length - options.maxFailures] ?? 0;
      return Math.max(1, Math.ceil((oldest + options.windowMs - options.clock.now().getTime()) / 1000));
    },
    recordFailure(address: string): void {
      const times = recent(address);
      times.push(options.clock.now().getTime());
      failures.set(address, times.slice(-options.maxFailures));
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
