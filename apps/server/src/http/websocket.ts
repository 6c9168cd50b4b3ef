import { ErrorCode } from '@gantry/contract';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.ts';
import { createOwnOriginCheck } from './cross-site-guard.ts';
import type { LiveCaller, LiveHub } from '../live/live-hub.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

/** How often open sockets have their session or token checked again (idle expiry, changes on other nodes). */
const REVALIDATE_MS = 30_000;

/** Closes the sockets whose session or token has ended since (expired, or ended on a node that could not tell this one). */
export function revalidateSockets(
  auth: Pick<AuthService, 'findLiveCredentialUser'>,
  hub: Pick<LiveHub, 'revalidate'>,
): Promise<void> {
  return hub.revalidate(async (key) => {
    const user = await auth.findLiveCredentialUser(key);
    return user ? { admin: user.admin === 1 } : undefined;
  });
}

/**
 * An error on an open socket. One the client caused by breaking the protocol (ws names them WS_ERR_*:
 * a message over maxPayload, a bad frame, text that is not UTF-8) is noted at info level, so that a
 * client cannot fill the error log; anything else is the server's and logged as an error. Either way
 * the socket is gone (ws has already sent the close code where there is one).
 */
export function handleSocketError(
  error: unknown,
  socket: { terminate(): void },
  log: { info(details: object, message: string): void; error(details: object, message: string): void },
): void {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && code.startsWith('WS_ERR_'))
    log.info({ code }, 'websocket closed: the client broke the protocol');
  else log.error({ err: error }, 'websocket error');
  socket.terminate();
}

/**
 * GET /api/ws: live task updates and log lines for the signed-in user. `?batch=1` asks for log
 * lines in batches (one `logs` message per batch) instead of one `log` message per line.
 *
 * A browser sends the session cookie with a websocket handshake that any site opens, and the
 * handshake is a GET no CORS rule guards: a handshake naming a foreign Origin is refused, so no
 * other site can read task output with the user's cookie. Clients that send no Origin (scripts,
 * CLIs) are no browser and carry their own credentials. A socket lives as long as the session or
 * token it was opened with.
 */
export async function registerWebsocket(
  app: FastifyInstance,
  { auth, hub, webHost }: { auth: AuthService; hub: LiveHub; webHost: string },
): Promise<void> {
  const callers = new WeakMap<FastifyRequest, LiveCaller>();
  const isOwnOrigin = createOwnOriginCheck(webHost);

  let revalidating = false;
  const timer = setInterval(() => {
    if (revalidating) return;
    revalidating = true;
    revalidateSockets(auth, hub)
      .catch((error: unknown) => app.log.warn({ err: error }, 'Could not check the sessions of open websockets'))
      .finally(() => (revalidating = false));
  }, REVALIDATE_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  await app.register(fastifyWebsocket, {
    options: { maxPayload: 4096 },
    errorHandler: (error, socket, request) => handleSocketError(error, socket, request.log),
  });
  app.get(
    '/api/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        const origin = request.headers.origin;
        if (origin !== undefined && !isOwnOrigin(origin, request)) {
          return reply
            .code(403)
            .send({ error: 'Cross-origin websocket refused: Origin is not this server', code: ErrorCode.forbidden });
        }
        const caller = await auth.findCaller(readBearerToken(request), readSessionCookie(request));
        if (!caller) return reply.code(401).send({ error: 'Not signed in', code: ErrorCode.unauthorized });
        callers.set(request, { userId: caller.user.id, admin: caller.user.admin === 1, key: caller.key });
      },
    },
    (socket, request) => {
      const query = request.query as { batch?: string };
      const caller = callers.get(request);
      if (caller) hub.add(socket, caller, query.batch === '1' || query.batch === 'true');
      else socket.close(1008, 'Not signed in');
    },
  );
}
