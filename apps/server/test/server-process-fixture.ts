import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';
import { readTestEnvironment } from '../src/config.ts';

/** The `gantry` command run from the sources: tests exercise the code as it is now, not the last build. */
export const GANTRY_SOURCE_BIN = path.resolve(import.meta.dirname, '../bin/gantry-source.mjs');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far, when started with `captureOutput`. */
  output(): string;
}

export interface ServerProcessOptions {
  dataDir: string;
  port: number;
  /** More settings (GANTRY_ADMIN_PASSWORD, …) over the defaults: 127.0.0.1, log level warn, no web UI. */
  env?: Record<string, string>;
  /** Start under `umask 000`, as a careless service manager would. */
  permissiveUmask?: boolean;
  captureOutput?: boolean;
  /** How long the process may take to be ready; 60 s unless given (a loaded CI machine is slow to start one). */
  readyWithinMs?: number;
}

/** Starts `gantry server` as a process of its own and waits until it is ready (recovery done, scheduler running). */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env = {
    PATH: readTestEnvironment().path,
    GANTRY_DATA_DIR: options.dataDir,
    GANTRY_PORT: String(options.port),
    GANTRY_HOST: '127.0.0.1',
    GANTRY_LOG_LEVEL: 'warn',
    GANTRY_WEB_DIST_DIR: '/nonexistent',
    ...options.env,
  };
  const stdio: StdioOptions = options.captureOutput ? ['ignore', 'pipe', 'pipe'] : 'ignore';
  const child: ChildProcess = options.permissiveUmask
    ? spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, GANTRY_SOURCE_BIN, 'server'], {
        env,
        stdio,
      })
    : spawn(process.execPath, [GANTRY_SOURCE_BIN, 'server'], { env, stdio });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.readyWithinMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    if (
      await fetch(`${url}/api/ready`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server was not ready within ${options.readyWithinMs ?? 60_000} ms:\n${output}`);
}

/** A process started from the sources with the test PATH, its output gathered. */
export interface CapturedProcess {
  child: ChildProcess;
  /** Standard output and error as they came, interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
}

/** Runs `gantry <args>` from the sources as a process of its own (a runner, a CLI command). */
export function spawnGantryCommand(args: string[], env: Record<string, string> = {}): CapturedProcess {
  const child = spawn(process.execPath, [GANTRY_SOURCE_BIN, ...args], {
    env: { PATH: readTestEnvironment().path, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const gathered = { output: '', stdout: '', stderr: '' };
  for (const stream of ['stdout', 'stderr'] as const)
    child[stream]?.on('data', (chunk: Buffer) => {
      gathered[stream] += chunk.toString();
      gathered.output += chunk.toString();
    });
  return { child, output: () => gathered.output, stdout: () => gathered.stdout, stderr: () => gathered.stderr };
}

/** Calls a server process's API with a session: JSON in and out, sent from the server's own origin. */
export type ProcessApi = <T = Record<string, unknown> & { id: number }>(
  method: string,
  route: string,
  body?: unknown,
) => Promise<T>;

/** Signs in to the server at `url` and returns a client that calls it with that session. */
export async function signInToProcess(url: string, login: string, password: string): Promise<ProcessApi> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ auth: login, password }),
  });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${url}${route}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', origin: url },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await answer.json()) as T;
  };
}

/** A project whose repository is a local directory of scripts, with a maker of bash templates running them. */
export interface ScriptProject {
  /** The project's API path. */
  base: string;
  /** Creates a bash template running `playbook` from the scripts directory; returns its id. */
  createTemplate(fields: { name: string; playbook: string } & Record<string, unknown>): Promise<number>;
}

/** Creates, through `api`, a project (`fields`: its name and settings) whose repository is the local directory `scripts`. */
export async function createScriptProject(
  api: ProcessApi,
  scripts: string,
  fields: { name: string } & Record<string, unknown>,
): Promise<ScriptProject> {
  const project = await api('POST', '/api/projects', fields);
  const base = `/api/project/${project.id}`;
  const [key] = await api<{ id: number }[]>('GET', `${base}/keys`);
  const [group] = await api<{ id: number }[]>('GET', `${base}/environment`);
  const repository = await api('POST', `${base}/repositories`, {
    name: 'local',
    git_url: scripts,
    ssh_key_id: key?.id,
  });
  return {
    base,
    async createTemplate(template) {
      const created = await api('POST', `${base}/templates`, {
        app: 'bash',
        repository_id: repository.id,
        environment_id: group?.id,
        ...template,
      });
      return created.id;
    },
  };
}

/**
 * Creates, through `api`, a project whose repository is the local directory `scripts`, and a bash
 * template running `playbook` from it; returns the project's API path and the template's id.
 */
export async function createScriptTemplate(
  api: ProcessApi,
  scripts: string,
  names: { project: string; template: string; playbook: string },
): Promise<{ base: string; templateId: number }> {
  const { base, createTemplate } = await createScriptProject(api, scripts, { name: names.project });
  return { base, templateId: await createTemplate({ name: names.template, playbook: names.playbook }) };
}

/** Waits until the task's script has printed `pid <its process id>` (as `echo "pid $$"` does) and returns that id. */
export async function waitForScriptPid(api: ProcessApi, base: string, taskId: number): Promise<number> {
  let scriptPid = 0;
  for (let i = 0; i < 200 && !scriptPid; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const output = await api<{ output: string }[]>('GET', `${base}/tasks/${taskId}/output`);
    scriptPid = Number(output.find((l) => l.output.startsWith('pid '))?.output.slice(4) ?? 0);
  }
  return scriptPid;
}
