import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims of a person who can sign in at the test provider; the key of the accounts map is their login. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface OidcTestProvider {
  issuer: string;
  /** Mutable: tests change an account's groups between sign-ins. */
  accounts: Record<string, TestAccount>;
  /**
   * Plays the browser at the provider: follows the authorization URL, submits the sign-in form as
   * `login`, and returns the URL the provider sends the browser back to (the client's callback).
   */
  authorizeAs(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function signInForm(uid: string, message: string): string {
  return `<!doctype html><html><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Login <input name="login" autocomplete="off" autofocus></label>
<button type="submit">Continue</button>
</form></body></html>`;
}

async function readForm(request: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 with a one-field sign-in
 * form: whoever types a known login is signed in with that account's claims and consents at once.
 */
export async function startOidcTestProvider(options: {
  clients: TestClient[];
  accounts: Record<string, TestAccount>;
  port?: number;
}): Promise<OidcTestProvider> {
  const accounts = options.accounts;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
    jwks: { keys: [{ ...signingKey, kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email_verified: true, ...account }) };
    },
  });
  const providerCallback = provider.callback();

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(request.url ?? '');
    if (!match) {
      void providerCallback(request, response);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (request.method !== 'POST' || !match[2]) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInForm(details.uid, ''));
          return;
        }
        const login = (await readForm(request)).get('login') ?? '';
        if (!accounts[login]) {
          response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(signInForm(details.uid, `Unknown login ${login}`));
          return;
        }
        const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: login }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });

  async function authorizeAs(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const remember = (response: Response) => {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    let url = new URL(authorizationUrl);
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 10; step++) {
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(body ? { body } : {}),
      });
      remember(response);
      body = undefined;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        if (url.origin !== issuer) return url;
        continue;
      }
      if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
        await response.text();
        url = new URL(`${url.pathname}/login`, url);
        body = new URLSearchParams({ login });
        continue;
      }
      throw new Error(`The test provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    }
    throw new Error('The test provider never sent the browser back');
  }

  return {
    issuer,
    accounts,
    authorizeAs,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
