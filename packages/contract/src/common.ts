import { z } from 'zod';

/** The largest value of an integer column on every supported database: ids and counters stay at or below it. */
export const MAX_INTEGER = 2_147_483_647;

/** A larger id names nothing, and PostgreSQL would refuse it in a query instead of finding no row. */
export const Id = z.number().int().positive().max(MAX_INTEGER);
/** RFC 3339 UTC timestamp as written by the server. */
export const DateTime = z.string();

/** Path ids arrive as strings; anything but a positive decimal integer is refused. */
export const PathId = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a positive integer')
  .transform(Number)
  .refine((id) => id <= MAX_INTEGER, 'must be a positive integer');

export const ProjectParams = z.object({ projectId: PathId });

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
