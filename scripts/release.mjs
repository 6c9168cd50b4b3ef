// `npm run release`: packs Gantry as one npm package (`gantry-<version>.tgz` in release/) that
// installs anywhere with `npm install -g <tarball>` and needs no source tree: the compiled server,
// the built web UI, the demo scripts and the npm dependencies they import.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'release');
const stage = path.join(outDir, 'package');
const readManifest = (dir) => JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('node', ['scripts/build-if-stale.mjs'], root);
for (const built of ['apps/server/dist/gantry.mjs', 'apps/web/dist/index.html']) {
  if (!existsSync(path.join(root, built))) throw new Error(`${built} is missing after the build`);
}

const rootManifest = readManifest('.');
const server = readManifest('apps/server');
const dependencies = {};
for (const manifest of [server, readManifest('packages/runner'), readManifest('packages/contract')]) {
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (!name.startsWith('@gantry/')) dependencies[name] = range;
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
// The package root holds what the server looks for beside its dist/: bin/, web/ and demo/.
cpSync(path.join(root, 'apps/server/dist'), path.join(stage, 'dist'), { recursive: true });
cpSync(path.join(root, 'apps/web/dist'), path.join(stage, 'web'), { recursive: true });
cpSync(path.join(root, 'apps/server/demo'), path.join(stage, 'demo'), { recursive: true });
mkdirSync(path.join(stage, 'bin'));
cpSync(path.join(root, 'apps/server/bin/gantry.mjs'), path.join(stage, 'bin/gantry.mjs'));
for (const file of ['LICENSE', 'README.md']) cpSync(path.join(root, file), path.join(stage, file));
writeFileSync(
  path.join(stage, 'package.json'),
  `${JSON.stringify(
    {
      name: 'gantry',
      version: server.version,
      description: rootManifest.description,
      license: rootManifest.license,
      type: 'module',
      engines: rootManifest.engines,
      bin: { gantry: 'bin/gantry.mjs' },
      files: ['bin', 'dist', 'web', 'demo', 'LICENSE', 'README.md'],
      dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
      allowScripts: rootManifest.allowScripts,
    },
    null,
    2,
  )}\n`,
);
run('npm', ['pack', '--pack-destination', outDir], stage);
console.log(`Release package: ${path.join(outDir, `gantry-${server.version}.tgz`)}`);
