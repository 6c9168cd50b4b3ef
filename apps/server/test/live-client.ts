import WebSocket from 'ws';

/** A client of the live socket (/api/ws) and every message it received so far. */
export interface LiveClient {
  socket: WebSocket;
  messages: Record<string, unknown>[];
  /** Resolves with the close code once the server or the client closes the socket. */
  closed: Promise<number>;
}

/**
 * Opens the live socket of the server listening at `url` (http://host:port, see test-app's `listen`)
 * with `headers` (a session cookie) and `query`; resolves once it is open, rejects when refused.
 */
export function connectLive(url: string, headers: Record<string, string> = {}, query = ''): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws${query}`, { headers });
    const messages: Record<string, unknown>[] = [];
    const closed = new Promise<number>((done) => socket.on('close', (code: number) => done(code)));
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    socket.on('open', () => resolve({ socket, messages, closed }));
    socket.on('unexpected-response', (_request, response) =>
      reject(new Error(`handshake answered ${String(response.statusCode)}`)),
    );
    socket.on('error', reject);
  });
}
