#!/usr/bin/env node
// Loads the TypeScript sources through tsx, so the command runs straight from a checkout after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const code = await runCli(process.argv.slice(2));
process.exitCode = code;
