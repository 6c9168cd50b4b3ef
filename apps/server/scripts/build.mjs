// Compiles the server, with the runner and contract packages and the pure JavaScript dependencies it
// imports, into one ES module (dist/gantry.mjs): a start then reads one file instead of hundreds.
// Native modules stay in node_modules, and so do the libraries loaded on demand (load-on-demand.ts).
// The runner's process spawner and the process sweep's reader are scripts of their own, run by node
// beside the bundle: they are copied there.
import { copyFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = path.resolve(import.meta.dirname, '..');

/** Native addons, and optional peers that dependencies try to load and do without. */
const EXTERNAL = ['better-sqlite3', '@node-rs/argon2', 'bufferutil', 'utf-8-validate', 'pino-pretty'];

// esbuild has printed what failed; its stack trace would only bury that.
await build({
  entryPoints: [path.join(serverRoot, 'src/cli/bin.ts')],
  outfile: path.join(serverRoot, 'dist/gantry.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Node keeps a module's source in memory for as long as it runs: without whitespace and comments
  // it is a third smaller and starts faster. Names stay, so stack traces still name their functions
  // (and node --enable-source-maps maps them to the sources). The licence comments go to
  // gantry.mjs.LEGAL.txt: kept in the code, their non-ASCII letters would make V8 store all of it
  // at two bytes a character.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'linked',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  // Bundled CommonJS modules call require() for Node's own modules; an ES module has to make one.
  banner: {
    js: "import { createRequire as createGantryRequire } from 'node:module'; const require = createGantryRequire(import.meta.url);",
  },
  logLevel: 'warning',
}).catch(() => process.exit(1));

copyFileSync(
  path.join(serverRoot, '../../packages/runner/src/process-spawner.cjs'),
  path.join(serverRoot, 'dist/process-spawner.cjs'),
);
copyFileSync(
  path.join(serverRoot, '../../packages/runner/src/process-sweep-reader.cjs'),
  path.join(serverRoot, 'dist/process-sweep-reader.cjs'),
);
// Gantry's ansible callback plugin: the runner package finds its folder beside the bundle.
cpSync(
  path.join(serverRoot, '../../packages/runner/src/ansible-callback'),
  path.join(serverRoot, 'dist/ansible-callback'),
  { recursive: true },
);
