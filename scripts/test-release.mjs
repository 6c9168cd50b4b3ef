// Installs the release package into an empty folder, as a user would, and checks that the installed
// `gantry` starts, serves the web UI and the API, signs in and creates a demo project. Bounded: it
// gives up after a few minutes and always stops the server it started.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const version = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')).version;
const PASSWORD = 'release-Smoke-pass1';

// Native modules (better-sqlite3) must build against the headers of the Node that runs them, whatever
// nodedir a global npmrc names.
const nodePrefix = path.dirname(path.dirname(realpathSync(process.execPath)));
const buildEnv = existsSync(path.join(nodePrefix, 'include/node/node.h'))
  ? { ...process.env, npm_config_nodedir: nodePrefix }
  : process.env;

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    env: buildEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    // Installing compiles better-sqlite3 where no prebuilt binary fits: minutes on a busy 2-core machine.
    timeout: 15 * 60_000,
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})\n${result.stdout}`);
  return result.stdout;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function check(condition, message) {
  if (!condition) throw new Error(message);
  console.log(`  ok  ${message}`);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-release-'));
let server;
try {
  run('node', ['scripts/release.mjs'], root);
  const tarball = path.join(root, 'release', `gantry-${version}.tgz`);
  console.log(`Installing ${tarball} into an empty folder...`);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, tarball], dir);
  const gantry = path.join(dir, 'node_modules', '.bin', 'gantry');
  check(run(gantry, ['--version'], dir).trim() === version, `the installed gantry prints its version ${version}`);
  check(
    spawnSync('node', ['-e', "require.resolve('tsx')"], { cwd: dir }).status !== 0,
    'no TypeScript tooling is installed with it',
  );

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  server = spawn(gantry, ['server'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      GANTRY_DATA_DIR: path.join(dir, 'data'),
      GANTRY_PORT: String(port),
      GANTRY_HOST: '127.0.0.1',
      GANTRY_ADMIN_PASSWORD: PASSWORD,
      GANTRY_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (chunk) => (log += chunk));
  server.stderr.on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 120_000;
  let ready = false;
  while (!ready && Date.now() < deadline && server.exitCode === null) {
    ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!ready) console.error(`The installed server's output:\n${log || '(none)'}`);
  check(ready, `the installed server is ready at ${url}/api/ready`);
  const page = await fetch(`${url}/project/1/history`).then((r) => r.text());
  check(page.includes('<div id="root">'), 'it serves the web UI, deep links included');
  const signIn = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ auth: 'admin', password: PASSWORD }),
  });
  check(signIn.status === 204, 'the first administrator signs in');
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  const demo = await fetch(`${url}/api/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ name: 'Demo', demo: true }),
  });
  const project = await demo.json();
  check(demo.status === 201, `a demo project is created (${demo.status})`);
  const templates = await fetch(`${url}/api/project/${project.id}/templates`, { headers: { cookie } }).then((r) =>
    r.json(),
  );
  check(
    Array.isArray(templates) && templates.length > 0,
    `the demo project has its templates from the packaged demo scripts (${templates.length})`,
  );
  // A task runs through the process spawner, a script the bundle must ship beside itself.
  const hello = templates.find((template) => template.app === 'bash');
  const started = await fetch(`${url}/api/project/${project.id}/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ template_id: hello?.id }),
  }).then((r) => r.json());
  let task = started;
  const taskDeadline = Date.now() + 60_000;
  while (!['success', 'error', 'stopped'].includes(task.status) && Date.now() < taskDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    task = await fetch(`${url}/api/project/${project.id}/tasks/${started.id}`, { headers: { cookie } }).then((r) =>
      r.json(),
    );
  }
  check(task.status === 'success', `a bash task of the demo project runs to success (${task.status})`);
  console.log('Release package: installed and working.');
} catch (error) {
  console.error(`Release package check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  server?.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  server?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
