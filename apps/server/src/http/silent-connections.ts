import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closing the server lets requests under way finish and ends kept-alive connections between two
 * requests, but Node does not count a connection that has never sent a byte as idle: it stays, and
 * keeps the close waiting, until its headers timeout (60 s) ends it. Such connections happen: after
 * a runner aborts its long poll to stop, Node's fetch (undici) may open a new connection for the
 * aborted request and never send anything on it (nodejs/undici#5845), and browsers open connections
 * ahead of use. With nothing asked, there is nothing to finish: closing ends them at once.
 */
export function registerSilentConnectionsClose(app: FastifyInstance): void {
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.addHook('preClose', (done) => {
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
    done();
  });
}
