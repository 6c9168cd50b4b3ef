import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp, listen } from './test-app.ts';

/** Far below Node's headers timeout (60 s), which is what ended a connection that never sent a byte before. */
const PROMPT_CLOSE_MS = 5000;

function connectSilently(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

// Closing is the HTTP server's business, the same on every store: SQLite only.
describe('closing the server', () => {
  it('ends at once a connection that never sent a byte, next to one that asked and was answered', async () => {
    const t = await createTestApp('sqlite');
    const url = await listen(t.app);
    // What Node's fetch leaves after a runner aborts its long poll (nodejs/undici#5845): a connection and nothing on it.
    const silent = await connectSilently(url);
    const silentClosed = new Promise<void>((resolve) => silent.once('close', () => resolve()));
    silent.on('error', () => undefined);
    const answered = await fetch(`${url}/api/ping`);
    expect(await answered.text()).toBe('pong');

    const started = performance.now();
    await t.close();
    await silentClosed;
    expect(performance.now() - started).toBeLessThan(PROMPT_CLOSE_MS);
  }, 20_000);
});
