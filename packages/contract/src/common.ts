import { z } from 'zod';

/** The largest value of an integer column on every supported database: ids and counters stay at or below it. */
export const MAX_INTEGER = 2_147_483_647;

interface IntegerRange {
  min?: number;
  max?: number;
  /** One message for every way the value can be wrong, or one per rule; the default names the range. */
  message?: string | { type: string; integer?: string; min: string; max: string };
}

function rangeMessages({ min = 0, max = MAX_INTEGER, message }: IntegerRange) {
  const upper = Math.min(max, MAX_INTEGER);
  const text = message ?? `must be an integer from ${min} to ${upper}`;
  if (typeof text === 'string') return { min, max: upper, type: text, integer: text, below: text, above: text };
  return { min, max: upper, type: text.type, integer: text.integer ?? text.type, below: text.min, above: text.max };
}

/**
 * Every integer of a body is built here, so none can leave the range of the databases' integer
 * columns: a larger value would make PostgreSQL refuse the query (a 500) instead of finding no row.
 */
export function wireInteger(range: IntegerRange = {}) {
  const m = rangeMessages(range);
  return z.number({ error: m.type }).int(m.integer).min(m.min, m.below).max(m.max, m.above);
}

/** The same range for integers of a query string, which arrive as text. */
export function queryInteger(range: IntegerRange = {}) {
  const m = rangeMessages(range);
  return z.coerce.number({ error: m.type }).int(m.integer).min(m.min, m.below).max(m.max, m.above);
}

/** The seeds' messages for counters such as max parallel tasks. */
export const COUNTER_MESSAGES = { type: 'Must be integer', min: 'Must be 0 or greater', max: 'Must be 100000 or less' };

/** Ids of bodies and responses. */
export const Id = wireInteger({ min: 1, message: 'must be a positive integer' });

/** An id naming another resource of the project: one past the range cannot be in it. */
export const projectRefId = (label: string) =>
  wireInteger({
    min: 1,
    message: {
      type: 'must be a positive integer',
      min: 'must be a positive integer',
      max: `${label} not found in this project`,
    },
  });

/** An id a form must fill in ("Template is required" when it is missing or not an id at all). */
export const requiredId = (label: string) =>
  wireInteger({ min: 1, message: { type: requiredText(label), min: requiredText(label), max: `${label} not found` } });

/** An optional reference to another resource; null or absent means none. */
export const OptionalId = Id.nullable().optional();

/** An id in a query string. */
export const QueryId = queryInteger({ min: 1, message: 'must be a positive integer' });

/** RFC 3339 UTC timestamp as written by the server. */
export const DateTime = z.string();

/** An id written as text (path segments, keys of a JSON map): decimal digits within the integer range. */
export const IdText = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a positive integer')
  .refine((id) => Number(id) <= MAX_INTEGER, 'must be a positive integer');

/** Path ids arrive as strings; anything but a decimal integer within the range is refused. */
export const PathId = IdText.transform(Number);

export const ProjectParams = z.object({ projectId: PathId });
/** The path of one task of a project. */
export const TaskParamsPath = z.object({ projectId: PathId, taskId: PathId });

export const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Responses without a body (204). */
export const NoContent = z.void();

export const SortOrder = z.enum(['asc', 'desc']).catch('asc');

/** Machine-readable error codes the UI may react to. */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  notFound: 'not_found',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  conflict: 'conflict',
  inUse: 'in_use',
  tooManyRequests: 'too_many_requests',
  badRequest: 'bad_request',
  payloadTooLarge: 'payload_too_large',
  /** The session awaits its second factor (or the TOTP enrolment the server requires). */
  totpRequired: 'totp_required',
  totpEnrollRequired: 'totp_enroll_required',
  totpDisabled: 'totp_disabled',
  internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const requiredText = (label: string) => `${label} is required`;

/** A required, trimmed, non-empty string with the seed's "<Label> is required" message. */
export const requiredString = (label: string, max = 255) =>
  z
    .string({ error: requiredText(label) })
    .trim()
    .min(1, requiredText(label))
    .max(max, `${label} must be at most ${max} characters`);

/**
 * The fields a project resource's body starts with: the ids Semaphore's clients send back with what they
 * read (the path names the resource; a different id is refused) and the required name.
 */
export const resourceBodyFields = { id: Id.optional(), project_id: Id.optional(), name: requiredString('Name') };

/** A JSON object's members, or undefined for anything else (bad JSON, an array, a scalar). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const GIT_BRANCH_INVALID = 'Branch must be a valid git branch name';

/**
 * Whether text is a branch name git accepts (check-ref-format). Empty means the default branch. A
 * branch reaches git's command line, where one starting with "-" would be read as an option
 * (`git fetch origin --upload-pack=<command>` runs the command).
 */
export function isGitBranchName(branch: string): boolean {
  if (branch === '') return true;
  if (
    branch === '@' ||
    branch.startsWith('-') ||
    branch.startsWith('/') ||
    branch.endsWith('/') ||
    branch.endsWith('.') ||
    branch.endsWith('.lock')
  )
    return false;
  if (/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\/|\/\./.test(branch)) return false;
  return !branch.startsWith('.');
}
