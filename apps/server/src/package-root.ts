import path from 'node:path';

/**
 * The server package's folder (apps/server). Both this source file (src/) and the build
 * (dist/gantry.mjs) sit one level below it, so the same expression holds for each.
 */
export const SERVER_PACKAGE_ROOT = path.resolve(import.meta.dirname, '..');
