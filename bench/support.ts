import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import type { Config, ConfigInput } from '../apps/server/src/config.ts';
import type { Dialect } from '../apps/server/src/db/database.ts';
import type { Runtime } from '../apps/server/src/runtime.ts';
import { openLocalRuntime } from '../apps/server/test/local-runtime.ts';
import { createTestDatabase } from '../apps/server/test/test-databases.ts';
import { generateYear, type YearOptions } from './scale-year.ts';

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The store a benchmark's `--db` flag names; anything but sqlite, postgres or mysql is refused. */
export function readDialectFlag(value: string): Dialect {
  if (value !== 'sqlite' && value !== 'postgres' && value !== 'mysql')
    throw new Error(`--db must be sqlite, postgres or mysql, not ${value}`);
  return value;
}

/** The value of `--name value` on the command line. */
export function readFlag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

export function ratio(label: string, measured: number, baseline: number, target: number, unit = 'ms'): boolean {
  const r = measured / baseline;
  const ok = r <= target;
  console.log(
    `${ok ? 'PASS' : 'MISS'}  ${label}: ${measured.toFixed(1)} ${unit} vs baseline ${baseline.toFixed(1)} ${unit} = ${r.toFixed(2)}x (target <= ${target}x)`,
  );
  return ok;
}

/** Spawns `true` the way a bare Node program would, resolving when the process is started. */
export function spawnTrue(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('true', [], { stdio: 'ignore' });
    child.on('spawn', () => resolve(performance.now() - started));
  });
}

export function spawnAndWait(command: string, args: string[]): Promise<void> {
  return new Promise((resolve) => spawn(command, args, { stdio: 'ignore' }).on('close', () => resolve()));
}

const BENCH_ADMIN_PASSWORD = 'bench-Pass-1';

/** An installation's runtime in this process on `dataDir` with these settings, its first admin made. */
function openBenchRuntime(dataDir: string, overrides: ConfigInput): Promise<{ config: Config; runtime: Runtime }> {
  return openLocalRuntime({
    data_dir: dataDir,
    admin_login: 'admin',
    admin_password: BENCH_ADMIN_PASSWORD,
    ...overrides,
  });
}

/** Serves an installation over HTTP on 127.0.0.1: its app, its port and the admin's session cookie. */
async function serveBench(config: Config, runtime: Runtime) {
  const app = await buildApp({ config, services: runtime.services });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { auth: 'admin', password: BENCH_ADMIN_PASSWORD },
  });
  return { app, port, cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' };
}

/**
 * A Gantry installation in this process on a new test store of `dialect` (bench/scale.ts, bench/logs-search.ts):
 * its runtime with the first admin made, `serve()` to listen on 127.0.0.1 with the admin's cookie, and `close()`
 * that drops the store and the data directory.
 */
export async function openBenchStore(dialect: Dialect, dataDirPrefix: string) {
  const store = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
  const { config, runtime } = await openBenchRuntime(dataDir, { db_dialect: dialect, db_url: store.url });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  return {
    runtime,
    /** The store's address (a file on SQLite). */
    url: store.url,
    /** Serves the installation over HTTP on 127.0.0.1: its port and the admin's session cookie. */
    async serve(): Promise<{ port: number; cookie: string }> {
      const served = await serveBench(config, runtime);
      app = served.app;
      return { port: served.port, cookie: served.cookie };
    },
    async close(): Promise<void> {
      await app?.close();
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
      await store.drop();
    },
  };
}

/**
 * A bench store (openBenchStore) filled with bench/scale-year.ts's year of the scale issue's installation (20
 * projects, 400 templates, 60 users, up to now); `year` sets its size and how it reports progress. `seconds` is
 * how long the year took to write, the store's creation left out.
 */
export async function openStoreWithYear(
  dialect: Dialect,
  dataDirPrefix: string,
  year: Pick<YearOptions, 'tasks' | 'lines' | 'searchIndex' | 'onProgress'>,
) {
  const installation = await openBenchStore(dialect, dataDirPrefix);
  const { db } = installation.runtime.connection;
  const started = performance.now();
  const generated = await generateYear(db, dialect, {
    projects: 20,
    templates: 400,
    users: 60,
    now: new Date(),
    ...year,
  });
  return { installation, db, year: generated, seconds: (performance.now() - started) / 1000 };
}

/** A Gantry installation in this process on a temp SQLite store, with one project and a local scripts directory. */
export async function startBenchServer(overrides: ConfigInput = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-'));
  const { config, runtime } = await openBenchRuntime(dataDir, overrides);
  const { app, port, cookie } = await serveBench(config, runtime);
  const admin = await runtime.services.users.findByLogin('admin');
  if (!admin) throw new Error('no admin');
  const scripts = path.join(dataDir, 'scripts');
  mkdirSync(scripts);
  const project = await runtime.services.projects.create(admin, { name: 'Bench' });
  const keys = await runtime.services.keys.list(project.id, 'name', 'asc');
  const groups = await runtime.services.environments.list(project.id, 'asc');
  const repository = await runtime.services.repositories.create(admin, project.id, {
    name: 'local',
    git_url: scripts,
    ssh_key_id: keys[0]?.id ?? 0,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });

  return {
    app,
    runtime,
    port,
    cookie,
    projectId: project.id,
    async createTemplate(name: string, script: string, fields: Record<string, unknown> = {}) {
      writeFileSync(path.join(scripts, `${name}.sh`), script);
      const template = await runtime.services.templates.create(admin, project.id, {
        name,
        app: 'bash',
        type: '',
        playbook: `${name}.sh`,
        repository_id: repository.id,
        environment_id: groups[0]?.id ?? null,
        arguments: null,
        allow_override_args_in_task: false,
        allow_override_branch_in_task: false,
        allow_parallel_tasks: false,
        suppress_success_alerts: false,
        autorun: false,
        survey_vars: [],
        vaults: [],
        task_params: {},
        ...fields,
      });
      return template.id;
    },
    /** Posts like an API client would: over a few kept-alive connections (a fetch per task would open 200 sockets here). */
    postTask(templateId: number): Promise<{ id: number; respondedAt: number }> {
      const body = JSON.stringify({ template_id: templateId });
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/api/project/${project.id}/tasks`,
            method: 'POST',
            agent,
            headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            const respondedAt = Date.now();
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => {
              if (response.statusCode !== 201 && response.statusCode !== 200)
                reject(new Error(`POST task: ${response.statusCode} ${text}`));
              else resolve({ id: (JSON.parse(text) as { id: number }).id, respondedAt });
            });
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    },
    async waitForStatus(taskId: number, statuses: string[]) {
      for (;;) {
        const task = await runtime.connection.db
          .selectFrom('task')
          .selectAll()
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow();
        if (statuses.includes(task.status)) return task;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      agent.destroy();
      await app.close();
      await runtime.close();
      // A million-line store is over 100 MB: runs must not pile them up in the temp directory.
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Where a benchmark stores its data: a temp SQLite file, or a fresh database on the test PostgreSQL or MariaDB. */
export async function openBenchDatabase(dialect: Dialect): Promise<{ overrides: ConfigInput; drop(): Promise<void> }> {
  if (dialect === 'sqlite') return { overrides: {}, drop: async () => undefined };
  const database = await createTestDatabase(dialect);
  return {
    overrides: { db_dialect: dialect, db_url: database.url, access_key_encryption: randomBytes(32).toString('base64') },
    drop: () => database.drop(),
  };
}
