// The image's HEALTHCHECK. A server is healthy when GET /api/ready answers 200: store reachable,
// migrations applied, scheduler running. A container running `gantry runner` serves no HTTP, and its
// health is its process being alive, so it always passes.
import { readFileSync } from 'node:fs';

const init = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
if (init.includes('runner')) process.exit(0);

function readPort() {
  if (process.env.GANTRY_PORT) return process.env.GANTRY_PORT;
  if (process.env.GANTRY_CONFIG) {
    try {
      const port = JSON.parse(readFileSync(process.env.GANTRY_CONFIG, 'utf8')).port;
      if (port) return String(port);
    } catch {
      // The server reports a broken configuration file itself; the default port is the best guess here.
    }
  }
  return '3000';
}

const listen = process.env.GANTRY_HOST ?? '';
const host = ['', '0.0.0.0', '::'].includes(listen) ? '127.0.0.1' : listen.includes(':') ? `[${listen}]` : listen;
try {
  const response = await fetch(`http://${host}:${readPort()}/api/ready`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
