import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_PACKAGE_ROOT } from './package-root.ts';

const manifest = JSON.parse(readFileSync(path.join(SERVER_PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

export const GANTRY_VERSION: string = manifest.version;
