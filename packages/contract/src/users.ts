import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { DateTime, Id, NoContent, PathId, requiredString, requiredText } from './common.ts';
import { UserTotpStatus } from './totp.ts';

export const User = z.object({
  id: Id,
  created: DateTime,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  admin: z.boolean(),
  external: z.boolean(),
  alert: z.boolean(),
  pro: z.boolean(),
  /** The active second factor; absent when the user has none. */
  totp: UserTotpStatus.optional(),
});
export type User = z.infer<typeof User>;

/** `has_active_subscription` is Semaphore's paid plan: Gantry has none (every feature is in /api/info's premium_features). */
export const CurrentUser = User.extend({ can_create_project: z.boolean(), has_active_subscription: z.literal(false) });
export type CurrentUser = z.infer<typeof CurrentUser>;

/** What a non-admin may learn about other users. */
export const UserSummary = z.object({ id: Id, username: z.string(), name: z.string() });
export type UserSummary = z.infer<typeof UserSummary>;

export const USERNAME_SURROUNDING_SPACE = 'Username cannot start or end with white space';
export const USERNAME_INVISIBLE_CHARACTERS = 'Username cannot contain control or invisible characters';

/**
 * A sign-in name as people type and read it: white space around it or a control or invisible format
 * character in it (a zero-width space, a bidirectional override) would make a name that looks like
 * another's, or that nobody can type.
 */
const username = z
  .string({ error: requiredText('Username') })
  .refine((s) => s.trim() === '' || s === s.trim(), USERNAME_SURROUNDING_SPACE)
  .refine((s) => !/\p{C}/u.test(s), USERNAME_INVISIBLE_CHARACTERS)
  .pipe(requiredString('Username'))
  .transform((s) => s.toLowerCase());

const userFields = {
  name: requiredString('Name'),
  username,
  email: requiredString('Email').transform((s) => s.toLowerCase()),
  admin: z.boolean().optional(),
  alert: z.boolean().optional(),
  external: z.boolean().optional(),
};

/**
 * The shortest password Gantry sets, by the API and the command line alike (the minimum of NIST SP
 * 800-63B). Signing in still accepts a shorter one set before, by Semaphore or an older Gantry.
 */
export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** A new password, or none: empty means "not changing it". */
const newPassword = z
  .string()
  .max(1024, 'Password must be at most 1024 characters')
  .refine((password) => password.length === 0 || password.length >= MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT);

export const CreateUserBody = z
  .object({ ...userFields, password: newPassword.optional() })
  .refine((u) => u.external === true || (u.password ?? '').length > 0, {
    message: 'Password is required',
    path: ['password'],
  });
export type CreateUserBody = z.input<typeof CreateUserBody>;

/** Your own password, asked when you change your own password or email. */
const currentPassword = z.string().max(1024, 'Password must be at most 1024 characters').optional();

export const UpdateUserBody = z.object({
  ...userFields,
  id: Id.optional(),
  password: newPassword.optional(),
  current_password: currentPassword,
});
export type UpdateUserBody = z.input<typeof UpdateUserBody>;

export const PasswordBody = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').pipe(newPassword),
  current_password: currentPassword,
});
export type PasswordBody = z.input<typeof PasswordBody>;

export const UserParams = z.object({ userId: PathId });

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  created: DateTime,
  expired: z.boolean(),
  expires_at: DateTime.nullable(),
  user_id: Id,
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CreateApiTokenBody = z
  .object({
    name: z.string().trim().max(255, 'Name must be at most 255 characters').optional(),
    expires_at: z.iso
      .datetime({ offset: true, error: 'Expiry must be an RFC 3339 date and time' })
      .nullable()
      .optional(),
  })
  .nullable()
  .optional();

export const userApi = {
  current: endpoint({ method: 'GET', path: '/api/user', response: CurrentUser }),
  listTokens: endpoint({ method: 'GET', path: '/api/user/tokens', response: z.array(ApiToken) }),
  createToken: endpoint({
    method: 'POST',
    path: '/api/user/tokens',
    body: CreateApiTokenBody,
    response: ApiToken,
    status: 201,
  }),
  deleteToken: endpoint({
    method: 'DELETE',
    path: '/api/user/tokens/:tokenId',
    params: z.object({ tokenId: z.string().min(1).max(128) }),
    response: NoContent,
    status: 204,
  }),
};

export const usersApi = {
  list: endpoint({ method: 'GET', path: '/api/users', response: z.union([z.array(User), z.array(UserSummary)]) }),
  get: endpoint({ method: 'GET', path: '/api/users/:userId', params: UserParams, response: User }),
  create: endpoint({ method: 'POST', path: '/api/users', body: CreateUserBody, response: User, status: 201 }),
  update: endpoint({
    method: 'PUT',
    path: '/api/users/:userId',
    params: UserParams,
    body: UpdateUserBody,
    response: NoContent,
    status: 204,
  }),
  setPassword: endpoint({
    method: 'POST',
    path: '/api/users/:userId/password',
    params: UserParams,
    body: PasswordBody,
    response: NoContent,
    status: 204,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/users/:userId',
    params: UserParams,
    response: NoContent,
    status: 204,
  }),
};
