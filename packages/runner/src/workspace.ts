import { createHash } from 'node:crypto';
import { type Dirent, chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TaskSpec } from '@gantry/contract';
import { resolveInside } from './contained-path.ts';

/**
 * Decrypted keys, passphrases, askpass scripts and saved plans live only while their task runs. A
 * server killed with SIGKILL cannot remove them, so they go to a memory file system when there is
 * one: gone at the next reboot at the latest, never on a disk that is backed up or reused. /dev/shm
 * is a tmpfs on every Linux and in containers; $XDG_RUNTIME_DIR is not set for most service
 * accounts, so it is not relied on. Each installation (work root) gets its own 0700 directory
 * there, named after the work root so that the next start finds what a killed one left; one that
 * is not ours (another user made it first, a symlink) is not used: the work root serves instead.
 */
const MEMORY_FILE_SYSTEM = '/dev/shm';
const WORKSPACE_KINDS = ['tasks', 'checks'] as const;
type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];

const chosenRoots = new Map<string, string>();

function memoryDirectoryName(workRoot: string): string {
  const uid = process.getuid?.() ?? 0;
  return `gantry-${uid}-${createHash('sha256').update(path.resolve(workRoot)).digest('hex').slice(0, 20)}`;
}

/** A 0700 directory owned by this user, not a link: then nobody else can read or swap what goes in it. */
function isPrivateDirectory(dir: string): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && stat.uid === (process.getuid?.() ?? stat.uid) && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

function prepareMemoryRoot(workRoot: string, memoryBase: string): string | null {
  try {
    if (!statSync(memoryBase).isDirectory()) return null;
    const dir = path.join(memoryBase, memoryDirectoryName(workRoot));
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
    if (!lstatSync(dir).isSymbolicLink() && lstatSync(dir).uid === process.getuid?.()) chmodSync(dir, 0o700);
    return isPrivateDirectory(dir) ? dir : null;
  } catch {
    return null;
  }
}

/** Where the private files of tasks run under `workRoot` go: the memory directory when usable, else the work root. */
export function privateFilesRoot(workRoot: string, memoryBase = MEMORY_FILE_SYSTEM): string {
  const key = `${path.resolve(workRoot)}\0${memoryBase}`;
  const known = chosenRoots.get(key);
  if (known && (known === path.resolve(workRoot) || isPrivateDirectory(known))) return known;
  const chosen = prepareMemoryRoot(workRoot, memoryBase) ?? path.resolve(workRoot);
  chosenRoots.set(key, chosen);
  return chosen;
}

const CHECKOUTS_DIRECTORY = 'repositories';
const PROJECT_CHECKOUTS_NAME = /^project_\d+$/;
/** A checkout of one task only (a template that allows parallel tasks), removed when the task ends. */
const PRIVATE_CHECKOUT_NAME = /^repository_\d+_template_\d+_task_\d+$/;

/** Where the working copies of one project's templates live. */
export function projectCheckoutsDirectory(workRoot: string, projectId: number): string {
  return path.join(workRoot, CHECKOUTS_DIRECTORY, `project_${projectId}`);
}

export function checkoutDirectory(workRoot: string, spec: TaskSpec): string {
  const base = projectCheckoutsDirectory(workRoot, spec.project_id);
  const name = `repository_${spec.repository.id}_template_${spec.template_id}`;
  return path.join(base, spec.private_checkout ? `${name}_task_${spec.task_id}` : name);
}

/** The entries of a directory; none when it is missing or not a directory. */
function listDirectory(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Removes every task and check workspace a previous process left under `workRoot`, in both places
 * they may be, and the per-task checkouts its killed tasks could not remove. Only for start-up,
 * before any task runs: the files of running tasks would go too.
 */
export function removeLeftoverWorkspaces(workRoot: string, memoryBase = MEMORY_FILE_SYSTEM): void {
  const roots = new Set([path.resolve(workRoot)]);
  const memoryRoot = path.join(memoryBase, memoryDirectoryName(workRoot));
  if (isPrivateDirectory(memoryRoot)) roots.add(memoryRoot);
  for (const root of roots)
    for (const kind of WORKSPACE_KINDS) rmSync(path.join(root, kind), { recursive: true, force: true });
  const checkouts = path.join(workRoot, CHECKOUTS_DIRECTORY);
  // A link in place of a project's directory is not followed (a Dirent is not): what it points to is not ours to clean.
  for (const project of listDirectory(checkouts).filter(
    (entry) => entry.isDirectory() && PROJECT_CHECKOUTS_NAME.test(entry.name),
  )) {
    const dir = path.join(checkouts, project.name);
    for (const entry of listDirectory(dir))
      if (PRIVATE_CHECKOUT_NAME.test(entry.name)) rmSync(path.join(dir, entry.name), { recursive: true, force: true });
  }
}

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

/** A private directory for one task's files (keys, passwords, variables); removed when the task ends. */
export function createTaskWorkspace(
  workRoot: string,
  id: number,
  kind: WorkspaceKind = 'tasks',
  memoryBase = MEMORY_FILE_SYSTEM,
) {
  const root = privateFilesRoot(workRoot, memoryBase);
  const dir = resolveInside(root, path.join(kind, `${kind.slice(0, -1)}_${id}`), 'The task workspace');
  let created = false;
  let counter = 0;
  // Made on first use: most script tasks need no private files at all.
  const ensureDir = () => {
    if (created) return;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o700);
    created = true;
  };
  return {
    dir,
    /**
     * Writes a file only the server's user can read; returns its path. The name is a label: it is
     * reduced to safe characters behind a counter, so no input can pick or overwrite a path.
     */
    writePrivateFile(name: string, content: string, mode = 0o600): string {
      ensureDir();
      counter += 1;
      const label =
        name
          .replace(/[^A-Za-z0-9_.-]/g, '_')
          .replace(/^\.+/, '')
          .slice(0, 40) || 'file';
      const file = path.join(dir, `${counter}-${label}`);
      // wx: a fresh file or a failure, never a write through something already there.
      writeFileSync(file, content, { mode, flag: 'wx' });
      chmodSync(file, mode);
      return file;
    },
    cleanup(): void {
      if (created) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TaskWorkspace = ReturnType<typeof createTaskWorkspace>;
