import { chmodSync, mkdirSync } from 'node:fs';
import { removeLeftoverWorkspaces } from '@gantry/runner';

/**
 * Makes what this process writes readable by its own user only: the data directory holds the
 * store, the encryption key, checkouts and task files, so an installation made under a permissive
 * umask (or by an older Gantry) is closed at every start, whatever umask the service manager set.
 */
function makeDataPrivate(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
}

/**
 * Start-up of a server or runner: private files, then no decrypted key, passphrase or askpass
 * script left by a process that was killed (SIGKILL, power loss) may outlive it. Runs before any
 * task starts, so no running task's files can be among them.
 */
export function prepareWorkRoot(workRoot: string): void {
  makeDataPrivate(workRoot);
  removeLeftoverWorkspaces(workRoot);
}
