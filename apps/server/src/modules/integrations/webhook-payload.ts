import type { IncomingHttpHeaders } from 'node:http';
import type { BodyDataType, MatchMethod } from '@gantry/contract';

/**
 * One incoming webhook call, read once and shared by every candidate integration. Authentication
 * reads only the headers and the raw bytes; the body is decoded and parsed on first use, by the
 * matchers and extractors of an integration that let the caller in, so a caller that fails
 * authentication never has its body parsed.
 */
export interface WebhookPayload {
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  readonly json: unknown;
}

function parseJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: json matchers and extractors simply find nothing.
    return undefined;
  }
}

export function readPayload(headers: IncomingHttpHeaders, raw: Buffer): WebhookPayload {
  let text: string | undefined;
  let json: { value: unknown } | undefined;
  return {
    headers,
    raw,
    get text() {
      text ??= raw.toString('utf8');
      return text;
    },
    get json() {
      json ??= { value: parseJson(this.text) };
      return json.value;
    },
  };
}

/** A header value; repeated headers count as their first occurrence. */
export function readHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.trim().toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Follows a dotted path such as `pull_request.head.ref` or `commits.0.id` (`commits[0].id` works too).
 * Undefined when any step is missing.
 */
function readJsonPath(document: unknown, path: string): unknown {
  const steps = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((step) => step !== '');
  let current: unknown = document;
  for (const step of steps) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (current !== null && typeof current === 'object' && Object.hasOwn(current, step))
      current = (current as Record<string, unknown>)[step];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * The text a JSON value is compared as: strings as they are, whole numbers without a fraction, objects
 * as JSON. Undefined for a value nested too deep to print (JSON.stringify recurses; a 1 MiB body of
 * brackets exhausts the stack), which then counts as missing.
 */
function stringifyJsonValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

export interface ValueLocation {
  source: 'body' | 'header';
  bodyDataType: BodyDataType | '';
  key: string;
}

/** Reads one value from the call; undefined when it is not there. */
export function readValue(payload: WebhookPayload, at: ValueLocation): string | undefined {
  if (at.source === 'header') return readHeader(payload.headers, at.key);
  if (at.bodyDataType === 'string') return payload.text;
  if (payload.json === undefined) return undefined;
  const value = readJsonPath(payload.json, at.key);
  return value === undefined ? undefined : stringifyJsonValue(value);
}

/** A missing value equals nothing and contains nothing, so it is "unequal" to everything. */
export function compareValue(actual: string | undefined, method: MatchMethod, expected: string): boolean {
  switch (method) {
    case 'equals':
      return actual === expected;
    case 'unequals':
      return actual !== expected;
    case 'contains':
      return actual !== undefined && actual.includes(expected);
  }
}
