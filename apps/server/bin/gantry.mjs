#!/usr/bin/env node
// The `gantry` command: the compiled build (`npm run build`), which needs no TypeScript tooling.
// A development checkout that has not been built yet runs its sources instead.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22 keeps the compiled code of the build between starts (a no-op on older Node).
module.enableCompileCache?.();
const build = new URL('../dist/gantry.mjs', import.meta.url);
await import(existsSync(build) ? build.href : './gantry-source.mjs');
