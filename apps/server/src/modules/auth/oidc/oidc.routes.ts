import { oidcApi } from '@gantry/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Routes } from '../../../http/route.ts';
import { PUBLIC } from '../../../http/route.ts';
import type { SessionCookies } from '../../../http/session-cookie.ts';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_COOKIE_PATH, OIDC_FLOW_TTL_MS } from './oidc-flow.ts';
import type { OidcService, OidcStep } from './oidc.service.ts';

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function clientOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** Sends the browser on with a 307, setting or clearing the flow cookie and setting the session cookie. */
function follow(
  sessionCookies: SessionCookies,
  request: FastifyRequest,
  reply: FastifyReply,
  step: OidcStep,
): FastifyReply {
  // Lax: the provider sends the browser back with a top-level GET, which Lax cookies accompany.
  const cookie = {
    path: OIDC_FLOW_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: sessionCookies.isSecure(request),
  } as const;
  if (step.flowCookie)
    reply.setCookie(OIDC_FLOW_COOKIE, step.flowCookie, { ...cookie, maxAge: OIDC_FLOW_TTL_MS / 1000 });
  else reply.clearCookie(OIDC_FLOW_COOKIE, cookie);
  if (step.sessionToken) sessionCookies.set(request, reply, step.sessionToken);
  return reply.redirect(step.location, 307);
}

export function registerOidcRoutes(
  route: Routes,
  { oidc, sessionCookies }: { oidc: OidcService; sessionCookies: SessionCookies },
) {
  const login = ({
    params,
    query,
    request,
    reply,
  }: {
    params: { provider: string };
    query: { return?: string | undefined; redirect?: string | undefined };
    request: FastifyRequest;
    reply: FastifyReply;
  }) =>
    oidc
      .startLogin(params.provider, query.return ?? query.redirect, originOf(request))
      .then((step) => void follow(sessionCookies, request, reply, step));
  route(oidcApi.login, PUBLIC, login);
  route(oidcApi.loginPost, PUBLIC, login);

  // The path after the callback (older Semaphore releases) is ignored: the sealed flow holds the return path.
  const callback = async ({
    params,
    query,
    request,
    reply,
  }: {
    params: { provider: string };
    query: Record<string, unknown>;
    request: FastifyRequest;
    reply: FastifyReply;
  }) =>
    void follow(
      sessionCookies,
      request,
      reply,
      await oidc.finishLogin(
        params.provider,
        query,
        request.cookies[OIDC_FLOW_COOKIE],
        originOf(request),
        clientOf(request),
      ),
    );
  route(oidcApi.callback, PUBLIC, callback);
  route(oidcApi.callbackWithPath, PUBLIC, callback);
}
