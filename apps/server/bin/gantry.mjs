#!/usr/bin/env node
// The `gantry` command: the compiled build (`npm run build`), which needs no TypeScript tooling.
// A development checkout that has not been built yet runs its sources instead.
import { existsSync } from 'node:fs';

const build = new URL('../dist/gantry.mjs', import.meta.url);
await import(existsSync(build) ? build.href : './gantry-source.mjs');
