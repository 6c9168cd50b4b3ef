import type { Clock } from '../../clock.ts';

export interface FailureLogDecision {
  log: boolean;
  /** Failures of the previous window that were counted but not logged, to report with this one. */
  suppressed: number;
}

/**
 * Anyone who knows an alias can call it: a flood of bad calls must not flood the project's event
 * log. Per source (an integration, or a project-wide alias that found no integration), the first
 * `limit` failures of each window are logged; the rest are only counted and reported with the first
 * failure logged after the window.
 */
export function createFailureLogLimiter({
  clock,
  windowMs = 60_000,
  limit = 5,
}: {
  clock: Clock;
  windowMs?: number;
  limit?: number;
}) {
  const windows = new Map<number | string, { start: number; logged: number; suppressed: number }>();
  return {
    admit(source: number | string): FailureLogDecision {
      const now = clock.now().getTime();
      const current = windows.get(source);
      if (!current || now - current.start >= windowMs) {
        windows.set(source, { start: now, logged: 1, suppressed: 0 });
        return { log: true, suppressed: current?.suppressed ?? 0 };
      }
      if (current.logged < limit) {
        current.logged += 1;
        return { log: true, suppressed: 0 };
      }
      current.suppressed += 1;
      return { log: false, suppressed: 0 };
    },
  };
}
