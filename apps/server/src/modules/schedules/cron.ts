import { Cron } from 'croner';

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Why a cron expression is not accepted, or undefined when it is: five fields, or a descriptor. */
export function explainCron(expression: string, timezone: string): string | undefined {
  const text = expression.trim();
  if (!DESCRIPTORS.has(text.toLowerCase()) && text.split(/\s+/).length !== 5) {
    return 'Cron: expected five fields (minute hour day-of-month month day-of-week) or a descriptor such as @daily';
  }
  try {
    new Cron(text, { timezone, paused: true });
    return undefined;
  } catch (error) {
    return `Cron: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The first due time strictly after `after`, in the schedule time zone; undefined if there is none. */
export function nextRunAfter(expression: string, timezone: string, after: Date): Date | undefined {
  return new Cron(expression.trim(), { timezone, paused: true }).nextRun(after) ?? undefined;
}
