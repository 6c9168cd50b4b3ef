import type { FastifyReply, FastifyRequest } from 'fastify';

const SESSION_COOKIE = 'gantry_session';

/**
 * Sets and clears the session cookie. It is marked Secure when the request came over https (behind
 * a trusted proxy, as the proxy says) or when the configured public address is https: a proxy that
 * terminates TLS without being trusted still serves the site over https, and the cookie must never
 * travel in clear text there.
 */
export function createSessionCookies({ webHost }: { webHost: string }) {
  const publicHttps = /^https:/i.test(webHost.trim());
  const isSecure = (request: FastifyRequest) => publicHttps || request.protocol === 'https';
  const options = (request: FastifyRequest) =>
    ({ path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) }) as const;
  return {
    isSecure,
    set(request: FastifyRequest, reply: FastifyReply, token: string): void {
      reply.setCookie(SESSION_COOKIE, token, options(request));
    },
    clear(request: FastifyRequest, reply: FastifyReply): void {
      reply.clearCookie(SESSION_COOKIE, options(request));
    },
  };
}

export type SessionCookies = ReturnType<typeof createSessionCookies>;

export function readSessionCookie(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE] || undefined;
}

/** The bearer token of an Authorization header, compared case-insensitively as API clients send it. */
export function readBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** How the caller signed in: the router prefers a bearer token over the cookie, and so does this. */
export type Credential = 'token' | 'session';

export function credentialOf(request: FastifyRequest): Credential {
  return readBearerToken(request) ? 'token' : 'session';
}
