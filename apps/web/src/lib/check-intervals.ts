import type { TFunction } from 'i18next';
import { COMMIT_CHECK_INTERVALS } from '@gantry/contract';

type CheckInterval = (typeof COMMIT_CHECK_INTERVALS)[number];

/** The translation key of each "run on new commit" check interval; the schedules catalogue holds them. */
const LABEL_KEYS: Record<CheckInterval, string> = {
  '* * * * *': 'schedules.checkIntervals.everyMinute',
  '*/5 * * * *': 'schedules.checkIntervals.every5Minutes',
  '*/10 * * * *': 'schedules.checkIntervals.every10Minutes',
  '@hourly': 'schedules.checkIntervals.everyHour',
  '@daily': 'schedules.checkIntervals.every24Hours',
};

function isCheckInterval(value: string): value is CheckInterval {
  return (COMMIT_CHECK_INTERVALS as readonly string[]).includes(value);
}

/** A check interval by name ("Every 5 minutes"); an expression another client saved shows as itself. */
export function getCheckIntervalLabel(t: TFunction, interval: string): string {
  return isCheckInterval(interval) ? t(LABEL_KEYS[interval]) : interval;
}

/** The intervals a form offers: the standard ones, plus the saved one when it is none of them. */
export function listCheckIntervals(current: string): string[] {
  return isCheckInterval(current) ? [...COMMIT_CHECK_INTERVALS] : [...COMMIT_CHECK_INTERVALS, current];
}
