import type { StatsEntry, TaskStatOutcome } from '@gantry/contract';
import { toTimestamp } from '../../clock.ts';

const DAY_MS = 86_400_000;

/** A day's finished tasks or workflow runs by the outcomes the stats chart shows. */
export type DayStatusCounts = { day: string } & Record<TaskStatOutcome, number>;

/** The days a stats request covers: `end` defaults to today, `start` to 30 days before `end`. */
export function resolveStatsRange(now: Date, query: { start?: string | undefined; end?: string | undefined }) {
  const end = query.end ?? toTimestamp(now).slice(0, 10);
  const start = query.start ?? toTimestamp(new Date(Date.parse(`${end}T00:00:00Z`) - 30 * DAY_MS)).slice(0, 10);
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
