import { forbidden } from '../../errors.ts';
import type { Credential } from '../../http/session-cookie.ts';

/**
 * API tokens and second factors guard the account itself. A leaked API token must not mint more
 * tokens or swap the second factor, so managing them takes a signed-in session.
 */
export function assertSessionCredential(credential: Credential, what: string): void {
  if (credential !== 'session')
    throw forbidden(`Managing ${what} needs a signed-in session; an API token cannot do this`);
}
