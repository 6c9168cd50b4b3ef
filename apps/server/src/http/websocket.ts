import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.ts';
import type { LiveHub } from './live-hub.ts';
import { readBearerToken, readSessionCookie } from './session-cookie.ts';

/**
 * GET /api/ws: live task updates and log lines for the signed-in user. `?batch=1` asks for log
 * lines in batches (one `logs` message per batch) instead of one `log` message per line.
 */
export async function registerWebsocket(app: FastifyInstance, { auth, hub }: { auth: AuthService; hub: LiveHub }): Promise<void> {
  const users = new WeakMap<object, { id: number; admin: boolean }>();
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  app.get('/api/ws', {
    websocket: true,
    schema: { hide: true },
    preValidation: async (request, reply) => {
      const bearer = readBearerToken(request);
      const session = readSessionCookie(request);
      const user = bearer ? await auth.findTokenUser(bearer) : session ? await auth.findSessionUser(session) : undefined;
      if (!user) return reply.code(401).send({ error: 'Not signed in', code: 'unauthorized' });
      users.set(request, { id: user.id, admin: user.admin === 1 });
    },
  }, (socket, request) => {
    const query = request.query as { batch?: string };
    const user = users.get(request);
    if (user) hub.add(socket, user, query.batch === '1' || query.batch === 'true');
    else socket.close(1008, 'Not signed in');
  });
}
