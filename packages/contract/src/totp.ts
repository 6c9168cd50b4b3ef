import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { DateTime, Id, NoContent, PathId } from './common.ts';

/** The second-factor methods the server offers, as in the login options and system info (absent from older servers: none). */
export const AuthMethods = z.object({
  totp: z.object({ allow_recovery: z.boolean(), required: z.boolean() }).optional(),
});
export type AuthMethods = z.infer<typeof AuthMethods>;

/** A user's active TOTP factor as /api/user reports it: never the secret. */
export const UserTotpStatus = z.object({ id: Id, created: DateTime, user_id: Id });
export type UserTotpStatus = z.infer<typeof UserTotpStatus>;

/**
 * A TOTP enrolment, answered once: the otpauth URL holds the secret and the recovery code is
 * shown only here (the server keeps its hash). It is not active until confirmed with a passcode.
 */
export const UserTotp = UserTotpStatus.extend({ url: z.string(), recovery_code: z.string().optional() });
export type UserTotp = z.infer<typeof UserTotp>;

export const PASSCODE_MESSAGE = 'Passcode must be 6 digits';

export const PasscodeBody = z.object({
  passcode: z
    .string({ error: PASSCODE_MESSAGE })
    .trim()
    .regex(/^[0-9]{6}$/, PASSCODE_MESSAGE),
});
export type PasscodeBody = z.input<typeof PasscodeBody>;

/**
 * Turning off one's own factor takes a current passcode, so a stolen session alone cannot remove
 * it. An administrator removing someone else's (a lost phone) sends none; Semaphore sends no body.
 */
export const RemoveTotpBody = z.object({ passcode: PasscodeBody.shape.passcode.optional() }).nullable().optional();
export type RemoveTotpBody = z.input<typeof RemoveTotpBody>;

export const RecoveryBody = z.object({
  recovery_code: z
    .string({ error: 'Recovery code is required' })
    .trim()
    .min(1, 'Recovery code is required')
    .max(128, 'Recovery code must be at most 128 characters'),
});
export type RecoveryBody = z.input<typeof RecoveryBody>;

/** The `error` text of the 401 a session awaiting its second factor gets (Semaphore's wording). */
export const TOTP_REQUIRED = 'TOTP_REQUIRED';
/** The `error` text of the 401 a session gets while the server requires TOTP the user has not set up. */
export const TOTP_ENROLL_REQUIRED = 'TOTP_ENROLL_REQUIRED';
export const TOTP_DISABLED = 'TOTP_DISABLED';

const TotpParams = z.object({ userId: PathId, totpId: PathId });
const EnrolmentParams = z.object({ totpId: PathId });

export const totpApi = {
  /** Starts an enrolment for oneself; replaces an unconfirmed one. */
  enrol: endpoint({
    method: 'POST',
    path: '/api/users/:userId/2fas/totp',
    params: z.object({ userId: PathId }),
    response: UserTotp,
  }),
  qr: endpoint({
    method: 'GET',
    path: '/api/users/:userId/2fas/totp/:totpId/qr',
    params: TotpParams,
    response: z.unknown(),
  }),
  confirm: endpoint({
    method: 'POST',
    path: '/api/users/:userId/2fas/totp/:totpId/confirm',
    params: TotpParams,
    body: PasscodeBody,
    response: NoContent,
    status: 204,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/users/:userId/2fas/totp/:totpId',
    params: TotpParams,
    body: RemoveTotpBody,
    response: NoContent,
    status: 204,
  }),

  /** Sign-in, second step: the session cookie names the session that awaits its factor. */
  verify: endpoint({ method: 'POST', path: '/api/auth/verify', body: PasscodeBody, response: NoContent, status: 204 }),
  recovery: endpoint({
    method: 'POST',
    path: '/api/auth/recovery',
    body: RecoveryBody,
    response: NoContent,
    status: 204,
  }),

  /** Enrolment during sign-in, when the server requires TOTP and the user has none yet. */
  enrolAtLogin: endpoint({ method: 'POST', path: '/api/auth/totp/enroll', response: UserTotp }),
  qrAtLogin: endpoint({
    method: 'GET',
    path: '/api/auth/totp/enroll/:totpId/qr',
    params: EnrolmentParams,
    response: z.unknown(),
  }),
  confirmAtLogin: endpoint({
    method: 'POST',
    path: '/api/auth/totp/enroll/:totpId/confirm',
    params: EnrolmentParams,
    body: PasscodeBody,
    response: NoContent,
    status: 204,
  }),
};
