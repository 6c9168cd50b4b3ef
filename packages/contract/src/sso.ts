import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { NoContent } from './common.ts';

/**
 * Why a single sign-on attempt ended back on the sign-in page: the server redirects to
 * `/auth/login?error=<code>` and the page explains the code.
 */
export const SsoErrorCode = z.enum([
  'oidc_unknown_provider',
  'oidc_unavailable',
  'oidc_invalid_state',
  'oidc_denied',
  'oidc_failed',
  'sso_no_email',
  'sso_email_unverified',
  'sso_local_user_conflict',
  'sso_username_taken',
  'sso_invalid_username',
]);
export type SsoErrorCode = z.infer<typeof SsoErrorCode>;

const OidcProviderParams = z.object({ provider: z.string().max(255) });

export const OidcLoginQuery = z.object({
  /** Where to land after signing in: a path on this site (`redirect` is the older spelling). */
  return: z.string().max(2048).optional(),
  redirect: z.string().max(2048).optional(),
});

/** The authorization response; every field is checked by the server, none is trusted. */
export const OidcCallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(4096).optional(),
    error: z.string().max(255).optional(),
    iss: z.string().max(2048).optional(),
  })
  .catchall(z.string().max(4096).or(z.array(z.string())));

export const oidcApi = {
  login: endpoint({
    method: 'GET',
    path: '/api/auth/oidc/:provider/login',
    params: OidcProviderParams,
    query: OidcLoginQuery,
    response: NoContent,
    status: 307,
  }),
  loginPost: endpoint({
    method: 'POST',
    path: '/api/auth/oidc/:provider/login',
    params: OidcProviderParams,
    query: OidcLoginQuery,
    response: NoContent,
    status: 307,
  }),
  callback: endpoint({
    method: 'GET',
    path: '/api/auth/oidc/:provider/redirect',
    params: OidcProviderParams,
    query: OidcCallbackQuery,
    response: NoContent,
    status: 307,
  }),
  /** Older Semaphore releases put the return path after the callback path. */
  callbackWithPath: endpoint({
    method: 'GET',
    path: '/api/auth/oidc/:provider/redirect/*',
    params: OidcProviderParams.extend({ '*': z.string().max(2048) }),
    query: OidcCallbackQuery,
    response: NoContent,
    status: 307,
  }),
};
