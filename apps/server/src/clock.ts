/** Time source, injected so tests can move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 UTC with milliseconds: sorts as text, identical on every database. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}
