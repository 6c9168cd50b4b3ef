import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser.ts';
import { spawnGantry, type GantryProcess } from '../e2e/support/server.ts';
import { cpuMilliseconds } from './gantry-nodes.ts';
import { median, ratio } from './support.ts';

/**
 * What an operator gets when they ship Gantry: the bytes the sign-in page costs a browser, the memory
 * an idle server holds, and how soon a fresh server is ready. Each figure is printed against the
 * performance issue's target; nothing is asserted.
 *
 * `npm run bench:ship` runs all three; `npm run bench:ship -- bytes` (or memory, start) runs one.
 * `--web-dist <dir>` serves another build of the web UI, to compare two builds on the same machine.
 */

const repoRoot = path.resolve(import.meta.dirname, '..');
const ADMIN_PASSWORD = 'ship-Bench-pass1';
const FIRST_PAGE_TARGET_KB = 190;
const IDLE_MEMORY_TARGET_MB = 100;
const IDLE_AFTER_MS = 60_000;
const START_TARGET_MS = 400;
const STARTS = 5;

function ensureBuild(): void {
  const outputs = ['apps/server/dist/gantry.mjs', 'apps/web/dist/index.html'];
  if (outputs.every((file) => existsSync(path.join(repoRoot, file)))) return;
  console.log('      building Gantry first (npm run build)...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/** The compiled `gantry server` on a free port and an empty SQLite store, as an operator starts it. */
function startBuiltServer(webDist: string | undefined): Promise<GantryProcess> {
  return spawnGantry({ GANTRY_ADMIN_PASSWORD: ADMIN_PASSWORD, ...(webDist ? { GANTRY_WEB_DIST_DIR: webDist } : {}) });
}

/** Polls /api/ready until it answers 200; resolves with the milliseconds since the spawn. */
async function waitReady(server: GantryProcess): Promise<number> {
  await server.waitFor('/api/ready', 5);
  return performance.now() - server.spawnedAt;
}

/** Scripts and stylesheets the sign-in page loads, as Chromium's network layer counts them (encoded = on the wire). */
async function firstPageBytes(webDist: string | undefined): Promise<boolean> {
  const server = await startBuiltServer(webDist);
  // Inside the try: a server that never gets ready, or a browser that fails to start, still stops the server.
  let browser: Browser | undefined;
  try {
    await waitReady(server);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const assets = new Map<string, { url: string; type: string; encoded: number; decoded: number; encoding: string }>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type !== 'Script' && event.type !== 'Stylesheet') return;
      const encoding =
        Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1] ??
        'identity';
      assets.set(event.requestId, {
        url: event.response.url,
        type: event.type,
        encoded: 0,
        decoded: 0,
        encoding: String(encoding),
      });
    });
    cdp.on('Network.dataReceived', (event) => {
      const asset = assets.get(event.requestId);
      if (asset) asset.decoded += event.dataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const asset = assets.get(event.requestId);
      if (asset) asset.encoded = event.encodedDataLength;
    });
    await cdp.send('Network.enable');
    await page.goto(`${server.url}/`);
    await page.locator('input[type="password"]').waitFor({ state: 'visible', timeout: 30_000 });
    // Whatever the page fetches right after the form shows still belongs to the first page.
    await page.waitForLoadState('networkidle');
    const list = [...assets.values()];
    const encoded = list.reduce((sum, asset) => sum + asset.encoded, 0) / 1024;
    const decoded = list.reduce((sum, asset) => sum + asset.decoded, 0) / 1024;
    for (const asset of list.sort((a, b) => b.encoded - a.encoded)) {
      console.log(
        `      ${asset.type.padEnd(10)} ${(asset.encoded / 1024).toFixed(1).padStart(7)} KB wire (${asset.encoding}) ${(asset.decoded / 1024).toFixed(1).padStart(7)} KB  ${new URL(asset.url).pathname}`,
      );
    }
    console.log(
      `      first page: ${list.length} scripts and stylesheets, ${decoded.toFixed(1)} KB uncompressed, ${encoded.toFixed(1)} KB on the wire`,
    );
    return ratio('sign-in page JS+CSS on the wire', encoded, FIRST_PAGE_TARGET_KB, 1, 'KB');
  } finally {
    await browser?.close();
    await server.stop();
  }
}

/** VmRSS of the server process a minute after its start, nobody having called it but the readiness probe. */
async function idleMemory(webDist: string | undefined): Promise<boolean> {
  const server = await startBuiltServer(webDist);
  try {
    await waitReady(server);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, IDLE_AFTER_MS - (performance.now() - server.spawnedAt))),
    );
    const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    const kilobytes = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] ?? Number.NaN);
    return ratio(
      `idle server resident memory ${IDLE_AFTER_MS / 1000} s after start`,
      kilobytes / 1024,
      IDLE_MEMORY_TARGET_MB,
      1,
      'MB',
    );
  } finally {
    await server.stop();
  }
}

/** From spawning the process to /api/ready answering 200 (store open, migrations applied, scheduler running). */
async function startToReady(webDist: string | undefined): Promise<boolean> {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const server = await startBuiltServer(webDist);
    try {
      times.push(await waitReady(server));
      const cpu = cpuMilliseconds(server.child.pid);
      if (cpu !== undefined) cpuTimes.push(cpu);
    } finally {
      await server.stop();
    }
  }
  console.log(`      start to ready on an empty SQLite store: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  // The wall time counts waiting for a core too: on a busy machine, the CPU time says what the start itself costs.
  if (cpuTimes.length > 0)
    console.log(
      `      CPU time used to get ready: ${cpuTimes.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(cpuTimes).toFixed(0)} ms; load average ${os.loadavg()[0]?.toFixed(1)})`,
    );
  return ratio(`start to /api/ready, median of ${STARTS}`, median(times), START_TARGET_MS, 1);
}

const args = process.argv.slice(2);
const webDistIndex = args.indexOf('--web-dist');
const webDist = webDistIndex >= 0 ? path.resolve(args[webDistIndex + 1] ?? '') : undefined;
const only = args.find((arg, index) => !arg.startsWith('--') && (webDistIndex < 0 || index !== webDistIndex + 1));
const benchmarks: Record<string, (dist: string | undefined) => Promise<boolean>> = {
  bytes: firstPageBytes,
  memory: idleMemory,
  start: startToReady,
};
if (only !== undefined && !(only in benchmarks))
  throw new Error(`Unknown benchmark ${only}; one of ${Object.keys(benchmarks).join(', ')}`);
ensureBuild();
const results: boolean[] = [];
for (const [name, run] of Object.entries(benchmarks))
  if (only === undefined || only === name) results.push(await run(webDist));
console.log(results.every(Boolean) ? 'All ship targets met.' : 'Some ship targets were missed.');
process.exit(0);
