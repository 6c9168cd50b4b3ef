import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase, type DbConnection } from '../apps/server/src/db/connect.ts';
import type { Dialect } from '../apps/server/src/db/database.ts';
import { freePort } from '../apps/server/test/machine.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/server-process-fixture.ts';
import { createTestDatabase } from '../apps/server/test/test-databases.ts';

/**
 * Gantry servers as real processes (from the sources) on one store, for the benchmarks that load
 * them from outside: the sustained launch rate and the cluster soak.
 */

export const ADMIN_PASSWORD = 'bench-Nodes-pass1';

export interface BenchStore {
  dialect: Dialect;
  url: string;
  /** A connection of the benchmark's own, to read what the servers stored. */
  connection: DbConnection;
  drop(): Promise<void>;
}

export async function openBenchStore(dialect: Dialect, dataDir: string): Promise<BenchStore> {
  const database =
    dialect === 'sqlite'
      ? { url: path.join(dataDir, 'gantry.sqlite'), drop: async () => undefined }
      : await createTestDatabase(dialect);
  const connection = connectDatabase(dialect, database.url);
  return {
    dialect,
    url: database.url,
    connection,
    async drop() {
      await connection.db.destroy();
      await database.drop();
    },
  };
}

export interface NodeOptions {
  store: BenchStore;
  dataDir: string;
  redisUrl?: string;
  accessKey: string;
  env?: Record<string, string>;
}

export async function startNode(options: NodeOptions, port?: number): Promise<ServerProcess & { port: number }> {
  const chosen = port ?? (await freePort());
  const server = await startServerProcess({
    // A node started again while the others run their tasks on a shared 2-core machine took up to 61 s.
    readyWithinMs: 120_000,
    captureOutput: true,
    dataDir: options.dataDir,
    port: chosen,
    env: {
      GANTRY_DB_DIALECT: options.store.dialect,
      GANTRY_DB_URL: options.store.url,
      GANTRY_ACCESS_KEY_ENCRYPTION: options.accessKey,
      GANTRY_ADMIN_LOGIN: 'admin',
      GANTRY_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...(options.redisUrl ? { GANTRY_REDIS_URL: options.redisUrl } : {}),
      ...options.env,
    },
  });
  return { ...server, port: chosen };
}

export const newAccessKey = () => randomBytes(32).toString('base64');

/** Resident memory of a process, in MiB, from /proc. */
/** The unit of /proc/<pid>/stat's CPU times (USER_HZ), 100 on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, all threads) a process has used so far, from /proc; undefined elsewhere.
 * Unlike the wall time it hardly moves when other processes share the cores.
 */
export function cpuMilliseconds(pid: number | undefined): number | undefined {
  try {
    // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU time the whole machine has spent busy so far (every core, every process, the kernel's share too),
 * from /proc/stat; undefined elsewhere. Over a run on an otherwise quiet machine, what the run cost in all.
 */
export function machineBusyMilliseconds(): number | undefined {
  try {
    // cpu  user nice system idle iowait irq softirq steal ...
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const busy = fields.reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0);
    return (busy * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export function readRssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

export interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

/** An API client over kept-alive connections, signed in as the first admin. */
export async function connectClient(baseUrl: string, maxSockets = 20) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const { hostname, port } = new URL(baseUrl);
  let cookie = '';
  function call(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: hostname,
          port,
          path: route,
          method,
          agent,
          headers: {
            ...(cookie ? { cookie } : {}),
            ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            ...headers,
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            if (!cookie && response.headers['set-cookie'])
              cookie = String(response.headers['set-cookie']).split(';')[0] ?? '';
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // Not JSON: kept as text.
            }
            resolve({ status: response.statusCode ?? 0, body: parsed, ms: performance.now() - started });
          });
        },
      );
      request.setTimeout(30_000, () => request.destroy(new Error(`${method} ${route} timed out`)));
      request.on('error', reject);
      request.end(payload);
    });
  }
  const login = await call('POST', '/api/auth/login', { auth: 'admin', password: ADMIN_PASSWORD });
  if (login.status !== 204) throw new Error(`sign-in failed: ${login.status}`);
  return { call, cookie: () => cookie, close: () => agent.destroy() };
}

export type Client = Awaited<ReturnType<typeof connectClient>>;

async function must<T>(answer: Promise<Answer>, what: string): Promise<T> {
  const result = await answer;
  if (result.status >= 300) throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body as T;
}

/** One project with a local repository of scripts, a template per script, and a webhook alias starting each. */
export async function createBenchProject(client: Client, scriptsDir: string, scripts: Record<string, string>) {
  mkdirSync(scriptsDir, { recursive: true });
  for (const [name, body] of Object.entries(scripts)) writeFileSync(path.join(scriptsDir, name), body);
  const project = await must<{ id: number }>(client.call('POST', '/api/projects', { name: 'Bench' }), 'project');
  const base = `/api/project/${project.id}`;
  const [key] = await must<{ id: number }[]>(client.call('GET', `${base}/keys`), 'keys');
  const [group] = await must<{ id: number }[]>(client.call('GET', `${base}/environment`), 'variable groups');
  const repository = await must<{ id: number }>(
    client.call('POST', `${base}/repositories`, { name: 'local', git_url: scriptsDir, ssh_key_id: key?.id }),
    'repository',
  );
  const templates: Record<string, { id: number; webhook: string }> = {};
  for (const name of Object.keys(scripts)) {
    const template = await must<{ id: number }>(
      client.call('POST', `${base}/templates`, {
        name,
        app: 'bash',
        playbook: name,
        repository_id: repository.id,
        environment_id: group?.id,
        allow_parallel_tasks: true,
      }),
      'template',
    );
    const integration = await must<{ id: number }>(
      client.call('POST', `${base}/integrations`, { name, template_id: template.id }),
      'integration',
    );
    const alias = await must<{ url: string }>(
      client.call('POST', `${base}/integrations/${integration.id}/aliases`),
      'alias',
    );
    templates[name] = { id: template.id, webhook: new URL(alias.url).pathname };
  }
  return { projectId: project.id, base, templates };
}

export function makeTempDir(name: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gantry-bench-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
