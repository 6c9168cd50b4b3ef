import type { StatsEntry, TaskStatOutcome } from '@gantry/contract';
import { isCalendarDay } from '@gantry/contract';
import { toTimestamp } from '../../clock.ts';
import { validationFailed } from '../../errors.ts';

const DAY_MS = 86_400_000;

/** A day's finished tasks or workflow runs by the outcomes the stats chart shows. */
export type DayStatusCounts = { day: string } & Record<TaskStatOutcome, number>;

/** A day's counts from the sums a stats query reads (PostgreSQL and MariaDB answer a sum as a string). */
export function readDayStatusCounts(day: string, sums: Record<TaskStatOutcome, number | string>): DayStatusCounts {
  return { day, success: Number(sums.success), failed: Number(sums.failed), stopped: Number(sums.stopped) };
}

/** Days one stats answer may cover: ten years, each answered with an entry of its own. */
const MAX_STATS_DAYS = 3660;

/** The day a YYYY-MM-DD names, or the 400 of a date that is no day of the calendar (2026-13-45, 2026-02-30). */
function parseDay(day: string, error: string): number {
  if (!isCalendarDay(day)) throw validationFailed(error);
  return Date.parse(`${day}T00:00:00Z`);
}

/**
 * The days a stats request covers: `end` defaults to today, `start` to 30 days before `end`; a range longer
 * than MAX_STATS_DAYS is refused, since every day of it is answered.
 */
export function resolveStatsRange(now: Date, query: { start?: string | undefined; end?: string | undefined }) {
  const end = query.end ?? toTimestamp(now).slice(0, 10);
  const endTime = parseDay(end, 'Invalid end date');
  const start = query.start ?? toTimestamp(new Date(endTime - 30 * DAY_MS)).slice(0, 10);
  if ((endTime - parseDay(start, 'Invalid start date')) / DAY_MS >= MAX_STATS_DAYS)
    throw validationFailed(`Stats cover at most ${MAX_STATS_DAYS} days`);
  return { start, end };
}

/** One entry per day from `start` to `end`, days without counts included as zeros (the chart draws every day). */
export function listStatsEntries(start: string, end: string, counts: DayStatusCounts[]): StatsEntry[] {
  const counted = new Map(counts.map((row) => [row.day, row]));
  const until = Date.parse(`${end}T00:00:00Z`) + DAY_MS;
  const entries: StatsEntry[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t < until; t += DAY_MS) {
    const date = toTimestamp(new Date(t)).slice(0, 10);
    const { success = 0, failed = 0, stopped = 0 } = counted.get(date) ?? {};
    entries.push({ date, count_by_status: { success, failed, stopped } });
  }
  return entries;
}
