/** Shown where a date or a duration is missing. */
export const DASH = '—';

export interface FormatOptions {
  /** BCP 47 locale; the runtime default when absent. */
  locale?: string;
  /** The current time, for relative output and open-ended durations. */
  now?: Date;
}

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

function formatClock(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function formatRelative(date: Date, now: Date, locale: string | undefined): string {
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const seconds = (date.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), 'minute');
  return rtf.format(Math.round(seconds / 3600), 'hour');
}

/**
 * A date for tables: today's dates read "5 minutes ago (14:32)", older ones the localised date
 * with HH:mm, and a missing value a dash.
 */
export function formatDate(value: DateInput, { locale, now = new Date() }: FormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return DASH;
  if (isSameDay(date, now)) return `${formatRelative(date, now, locale)} (${formatClock(date)})`;
  return `${date.toLocaleDateString(locale)} ${formatClock(date)}`;
}

type DurationInput = number | null | undefined | readonly [start: DateInput, end?: DateInput];

/**
 * A duration from milliseconds, or from a start and end pair where a missing end means now:
 * "1h 2m 5s", "45s". A missing value or start gives a dash.
 */
export function formatDuration(value: DurationInput, { locale, now = new Date() }: FormatOptions = {}): string {
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (Array.isArray(value)) {
    const [startValue, endValue] = value as readonly [DateInput, DateInput?];
    const start = toDate(startValue);
    if (!start) return DASH;
    ms = (toDate(endValue) ?? now).getTime() - start.getTime();
  } else {
    return DASH;
  }
  if (!Number.isFinite(ms)) return DASH;

  const total = Math.max(0, Math.floor(ms / 1000));
  const parts: Array<[number, 'hour' | 'minute' | 'second']> = [
    [Math.floor(total / 3600), 'hour'],
    [Math.floor((total % 3600) / 60), 'minute'],
    [total % 60, 'second'],
  ];
  const shown = parts.filter(([amount], index) => amount > 0 || (index === 2 && total < 60));
  return shown
    .map(([amount, unit]) =>
      new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'narrow' }).format(amount),
    )
    .join(' ');
}
