#!/usr/bin/env node
// The `gantry` command straight from the TypeScript sources (through tsx): for development and for
// tests, which must run the code as it is now, not the last build.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/bin.ts');
