/** How often a picker-built schedule fires; each timing shows the fields it uses. */
export const TIMINGS = ['yearly', 'monthly', 'weekly', 'daily', 'hourly'] as const;
export type Timing = (typeof TIMINGS)[number];

export type PickerField = 'minutes' | 'hours' | 'days' | 'months' | 'weekdays';

/** The fields each timing offers (minutes always; hours from daily up; days and months for longer periods). */
export const TIMING_FIELDS: Record<Timing, readonly PickerField[]> = {
  hourly: ['minutes'],
  daily: ['minutes', 'hours'],
  weekly: ['minutes', 'hours', 'weekdays'],
  monthly: ['minutes', 'hours', 'days'],
  yearly: ['minutes', 'hours', 'days', 'months'],
};

const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

/** The values each field offers: minutes in 5-minute steps, weekdays 0 (Sunday) to 6 (Saturday). */
export const FIELD_CHOICES: Record<PickerField, readonly number[]> = {
  minutes: range(0, 55, 5),
  hours: range(0, 23),
  days: range(1, 31),
  months: range(1, 12),
  weekdays: range(0, 6),
};

/** A new schedule fires every minute until the user chooses otherwise. */
export const DEFAULT_CRON = '* * * * *';

/** What the timing picker shows; an empty list is the field's wildcard. */
export interface CronPicker {
  timing: Timing;
  minutes: number[];
  hours: number[];
  days: number[];
  months: number[];
  weekdays: number[];
}

export const EMPTY_PICKER: CronPicker = {
  timing: 'hourly',
  minutes: [],
  hours: [],
  days: [],
  months: [],
  weekdays: [],
};

/** The cron text's field order. */
const CRON_ORDER: readonly PickerField[] = ['minutes', 'hours', 'days', 'months', 'weekdays'];

/** "5,0,5" → [0, 5]; undefined when the field holds anything but a list of choices (ranges, steps, names). */
function parseField(text: string, field: PickerField): number[] | undefined {
  if (text === '*') return [];
  if (!/^\d+(,\d+)*$/.test(text)) return undefined;
  // Cron accepts 7 for Sunday as well as 0.
  const values = text.split(',').map((part) => (field === 'weekdays' && part === '7' ? 0 : Number(part)));
  if (!values.every((value) => FIELD_CHOICES[field].includes(value))) return undefined;
  return [...new Set(values)].sort((a, b) => a - b);
}

/**
 * The timing a cron text shows in the picker, found by which fields are not wildcards: months make
 * it yearly, days monthly, weekdays weekly, hours daily, otherwise hourly. Undefined when the text
 * needs raw mode: descriptors, ranges, steps, minutes off the 5-minute grid, or a set field the
 * timing does not show (days together with weekdays, for instance).
 */
export function parseCron(cron: string): CronPicker | undefined {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) return undefined;
  const picker: CronPicker = { ...EMPTY_PICKER };
  for (const [index, field] of CRON_ORDER.entries()) {
    const values = parseField(parts[index] ?? '', field);
    if (!values) return undefined;
    picker[field] = values;
  }
  picker.timing = getTiming(picker);
  const shown = TIMING_FIELDS[picker.timing];
  if (CRON_ORDER.some((field) => !shown.includes(field) && picker[field].length > 0)) return undefined;
  return picker;
}

function getTiming(picker: CronPicker): Timing {
  if (picker.months.length > 0) return 'yearly';
  if (picker.days.length > 0) return 'monthly';
  if (picker.weekdays.length > 0) return 'weekly';
  if (picker.hours.length > 0) return 'daily';
  return 'hourly';
}

/** The cron text of a picker; fields the timing does not show are wildcards. */
export function toCron(picker: CronPicker): string {
  const shown = TIMING_FIELDS[picker.timing];
  return CRON_ORDER.map((field) => {
    const values = shown.includes(field) ? [...new Set(picker[field])].sort((a, b) => a - b) : [];
    return values.length > 0 ? values.join(',') : '*';
  }).join(' ');
}
