// Compiles the server, with the runner and contract packages it uses, into one ES module
// (dist/gantry.mjs). npm dependencies stay imports, resolved from node_modules at run time.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(serverRoot, '../..');
const manifests = ['apps/server', 'packages/runner', 'packages/contract'].map((dir) => JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')));
const dependencies = [...new Set(manifests.flatMap((m) => Object.keys(m.dependencies ?? {})))].filter((name) => !name.startsWith('@gantry/'));

// esbuild has printed what failed; its stack trace would only bury that.
await build({
  entryPoints: [path.join(serverRoot, 'src/cli/bin.ts')],
  outfile: path.join(serverRoot, 'dist/gantry.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external: dependencies.flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
}).catch(() => process.exit(1));
