import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { NoContent, requiredString } from './common.ts';
import { AuthMethods } from './totp.ts';

export const OidcProviderSummary = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  icon: z.string(),
});

export const LoginOptions = z.object({
  oidc_providers: z.array(OidcProviderSummary),
  login_with_password: z.boolean(),
  auth_methods: AuthMethods.default({}),
});
export type LoginOptions = z.infer<typeof LoginOptions>;

export const LoginBody = z.object({
  auth: requiredString('Username'),
  // Not trimmed: spaces may be part of a password.
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password must be at most 1024 characters'),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const INCORRECT_LOGIN_MESSAGE = 'Incorrect login or password';

export const authApi = {
  loginOptions: endpoint({ method: 'GET', path: '/api/auth/login', response: LoginOptions }),
  login: endpoint({ method: 'POST', path: '/api/auth/login', body: LoginBody, response: NoContent, status: 204 }),
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', response: NoContent, status: 204 }),
};
