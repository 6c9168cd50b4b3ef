import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../errors.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CrossSiteGuardDeps {
  /** The configured public URL (web_host), '' when unset. */
  webHost: string;
  /** Route URLs (as registered) that machines call without cookies: webhooks, the state backend, runners. */
  machineRoutes: (url: string) => boolean;
}

/** A host without the port a scheme implies, so that `Host: example.com:443` and `https://example.com` agree. */
const withoutDefaultPort = (host: string): string => host.toLowerCase().replace(/:(80|443)$/, '');

/** The host (with its port) an Origin or Referer names; undefined for "null" and anything unparsable. */
function hostOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? withoutDefaultPort(url.host) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an Origin or Referer names this server: the host the request came in on (behind a trusted
 * proxy, the forwarded host) or web_host. Shared by the cross-site guard and the websocket handshake.
 */
export function createOwnOriginCheck(webHost: string) {
  const publicHost = webHost ? hostOf(webHost) : undefined;
  return function isOwnOrigin(value: string, request: FastifyRequest): boolean {
    const host = hostOf(value);
    return host !== undefined && (host === withoutDefaultPort(request.host) || host === publicHost);
  };
}

function isJsonType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/**
 * Refuses cross-site writes. A browser attaches the session cookie to requests any site makes, and a
 * form or a text/plain fetch reaches us without a CORS preflight, so a state-changing request that
 * names a foreign Origin (or, without one, a foreign Referer) is refused, whoever it claims to be: that
 * covers cookie-authenticated writes and the sign-in form (login CSRF). A request without either header
 * comes from a script or an old client, never from a modern browser's cross-site POST; it is still
 * refused when it rides on the cookie with a type a form can send, because then nothing shows where it
 * came from. Bearer tokens are never sent by browsers on their own, so token requests pass untouched.
 *
 * The own origin is the host the request came in on (behind a trusted proxy, the forwarded host) or
 * web_host. The host is compared without its scheme: behind a TLS-terminating proxy that Gantry is not
 * told to trust, the request looks like http while the browser's Origin says https, and a different
 * scheme on the same host and port is no other site that could forge anything.
 */
export function registerCrossSiteGuard(app: FastifyInstance, deps: CrossSiteGuardDeps): void {
  const isOwnOrigin = createOwnOriginCheck(deps.webHost);

  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || readBearerToken(request)) return;
    const url = request.routeOptions.url;
    if (url !== undefined && deps.machineRoutes(url)) return;
    const origin = request.headers.origin;
    const referer = request.headers.referer;
    const source = origin ?? referer;
    if (source !== undefined) {
      if (!isOwnOrigin(source, request))
        throw forbidden(
          `Cross-site request refused: ${origin !== undefined ? 'Origin' : 'Referer'} is not this server`,
        );
      return;
    }
    const contentType = request.headers['content-type'];
    if (readSessionCookie(request) && contentType !== undefined && !isJsonType(contentType)) {
      throw forbidden('Cross-site request refused: a request signed in by cookie must send JSON or name its Origin');
    }
  });
}
