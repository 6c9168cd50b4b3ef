import type { StatsEntry } from '@gantry/contract';

/** The chart's ranges: past week (7 days), past month (30 days), past year. */
export const STATS_RANGES = ['week', 'month', 'year'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export const STATS_STATUSES = ['success', 'failed', 'stopped'] as const;
export type StatsStatus = (typeof STATS_STATUSES)[number];

const DAY_MS = 86_400_000;
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The first day (YYYY-MM-DD, UTC like the server's days) of a range ending today. */
export function getStatsStart(range: StatsRange, now: Date = new Date()): string {
  if (range === 'week') return isoDate(new Date(now.getTime() - 6 * DAY_MS));
  if (range === 'month') return isoDate(new Date(now.getTime() - 29 * DAY_MS));
  const yearAgo = new Date(now.getTime());
  yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
  return isoDate(new Date(yearAgo.getTime() + DAY_MS));
}

export interface StatsDay {
  date: string;
  success: number;
  failed: number;
  stopped: number;
  total: number;
}

/** Per-day counts; "error" is counted as failed, whichever the server says. */
export function toStatsDays(entries: readonly StatsEntry[]): StatsDay[] {
  return entries.map(({ date, count_by_status: counts }) => {
    const success = counts.success ?? 0;
    const failed = (counts.failed ?? 0) + (counts.error ?? 0);
    const stopped = counts.stopped ?? 0;
    return { date, success, failed, stopped, total: success + failed + stopped };
  });
}

/** A round axis maximum at or above the largest day: 1, 2, 5, 10, 20, 50... */
/**
 * The chart's horizontal lines (bottom, middle, top) as fractions of its height, each with the count it
 * stands for; a line where no whole count falls (the middle of 0..1 or 0..5) is drawn without a label.
 */
export function listAxisTicks(max: number): { fraction: number; label: number | undefined }[] {
  return [0, 0.5, 1].map((fraction) => {
    const count = max * fraction;
    return { fraction, label: Number.isInteger(count) ? count : undefined };
  });
}

export function getNiceMax(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
