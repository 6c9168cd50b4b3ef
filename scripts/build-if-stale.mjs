// `npm start` builds only when a build is missing or older than the sources it comes from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const outputs = ['apps/web/dist/index.html', 'apps/server/dist/gantry.mjs'].map((file) => path.join(root, file));
const inputs = [
  'packages/contract/src',
  'packages/runner/src',
  'apps/server/src',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'package-lock.json',
];

function newestChange(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

const sourcesChanged = Math.max(...inputs.map((input) => newestChange(path.join(root, input))));
const stale = outputs.some((output) => !existsSync(output) || statSync(output).mtimeMs < sourcesChanged);
if (stale) {
  console.log('Building Gantry (the build is missing or older than the sources)...');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  process.exit(result.status ?? 1);
}
