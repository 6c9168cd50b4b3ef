import { createHmac } from 'node:crypto';
import { authMethodNeedsSecret, type IntegrationAuthMethod } from '@gantry/contract';
import { readBasicCredentials } from '../../http/public-credentials.ts';
import { isSameSecret } from '../../secrets/secret-hash.ts';
import { readHeader, type WebhookPayload } from './webhook-payload.ts';

export interface WebhookSecret {
  login: string;
  password: string;
}

const hmacHex = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

/**
 * Checks that a call comes from whoever holds the integration's secret. Returns why it does not,
 * or undefined when it does. The reasons go to the project's event log, never to the caller.
 */
export function explainAuthFailure(
  method: IntegrationAuthMethod,
  authHeader: string,
  secret: WebhookSecret | undefined,
  payload: WebhookPayload,
): string | undefined {
  // No method ("" or "none"): anyone who knows the alias may call.
  if (!authMethodNeedsSecret(method)) return undefined;
  if (!secret?.password) return 'its auth secret key holds no password';
  switch (method) {
    case 'github':
    case 'bitbucket': {
      const header = method === 'github' ? 'x-hub-signature-256' : 'x-hub-signature';
      const signature = readHeader(payload.headers, header);
      if (!signature) return `the ${header} header is missing`;
      return isSameSecret(signature.trim().toLowerCase(), `sha256=${hmacHex(secret.password, payload.raw)}`)
        ? undefined
        : `the ${header} signature does not match`;
    }
    case 'hmac': {
      const signature = readHeader(payload.headers, authHeader);
      if (!signature) return `the ${authHeader} header is missing`;
      return isSameSecret(signature.trim().toLowerCase(), hmacHex(secret.password, payload.raw))
        ? undefined
        : `the ${authHeader} signature does not match`;
    }
    case 'token':
    case 'gitlab': {
      const header = method === 'gitlab' ? 'X-Gitlab-Token' : authHeader;
      const token = readHeader(payload.headers, header);
      if (token === undefined) return `the ${header} header is missing`;
      return isSameSecret(token, secret.password) ? undefined : `the ${header} token is wrong`;
    }
    case 'basic': {
      const credentials = readBasicCredentials(readHeader(payload.headers, 'authorization'));
      if (!credentials) return 'basic credentials are missing';
      // Both parts are always compared, so the time taken does not reveal which one was wrong.
      const loginOk = isSameSecret(credentials.login, secret.login);
      const passwordOk = isSameSecret(credentials.password, secret.password);
      return loginOk && passwordOk ? undefined : 'the basic credentials are wrong';
    }
  }
}
