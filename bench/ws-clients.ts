import WebSocket from 'ws';

/**
 * Run as its own process by the benchmark, like real browsers: opens N websocket clients, prints
 * "ready", then reports how many numbered lines each received, and whether in order, once the
 * task's final update arrived.
 */
const [url = '', cookie = '', count = '100', taskLines = '0'] = process.argv.slice(2);
const expected = Number(taskLines);
const results: { count: number; inOrder: boolean; done: boolean }[] = [];

await Promise.all(
  Array.from({ length: Number(count) }, () => {
    const state = { count: 0, inOrder: true, done: false, last: 0 };
    results.push(state);
    const socket = new WebSocket(url, { headers: { cookie } });
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; status?: string; lines?: { output: string }[] };
      if (message.type === 'update' && message.status === 'success') {
        state.done = true;
        socket.close();
        if (results.every((r) => r.done)) finish();
      }
      for (const line of message.lines ?? []) {
        if (!/^\d+$/.test(line.output)) continue;
        const n = Number(line.output);
        if (n !== state.last + 1) state.inOrder = false;
        state.last = n;
        state.count += 1;
      }
    });
    return new Promise((resolve) => socket.on('open', resolve));
  }),
);
console.log('ready');

function finish(): void {
  const complete = results.filter((r) => r.count === expected && r.inOrder).length;
  console.log(JSON.stringify({ clients: results.length, complete }));
  process.exit(0);
}
