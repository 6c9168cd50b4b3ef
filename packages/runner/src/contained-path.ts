import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { TaskFailure } from './task-failure.ts';

// The system's realpath: one call, where Node's own walks the path with an lstat per component.
const realpath = realpathSync.native;

/** Where a path sits on disk once every symlink on it is followed, as far as the path exists. */
function resolveOnDisk(target: string, describe: () => string): string {
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      return path.join(realpath(existing), ...missing);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // A link whose target is missing could be pointed anywhere later: it is not followed, it is refused.
    let isLink = false;
    try {
      isLink = lstatSync(existing).isSymbolicLink();
    } catch {
      // really missing: look at the parent
    }
    if (isLink) throw new TaskFailure(`${describe()} is a broken symbolic link`);
    const parent = path.dirname(existing);
    if (parent === existing) return target;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
}

/**
 * Resolves a path built from input (a playbook, an inventory file, a working directory) inside
 * `root` and proves it stays there after symlinks are followed: a repository is someone's content,
 * and a link to /etc in it must not make Gantry run or read what lies outside. Absolute inputs,
 * `..` escapes and NUL bytes are refused; `.` or an empty input is the root itself. Returns the
 * real path, so what is used later is what was checked.
 */
export function resolveInside(root: string, relative: string, what = 'The path'): string {
  const describe = () => `${what} ${JSON.stringify(relative)}`;
  if (relative.includes('\0')) throw new TaskFailure(`${describe()} contains a NUL byte`);
  if (path.isAbsolute(relative)) throw new TaskFailure(`${describe()} must be relative, not absolute`);
  const lexical = path.resolve(root, relative);
  if (!isWithin(path.resolve(root), lexical)) throw new TaskFailure(`${describe()} leaves its directory`);
  let realRoot: string;
  try {
    realRoot = realpath(root);
  } catch {
    throw new TaskFailure(`${what} cannot be resolved: ${root} does not exist`);
  }
  const real = resolveOnDisk(lexical, describe);
  if (!isWithin(realRoot, real))
    throw new TaskFailure(`${describe()} leads outside its directory through a symbolic link`);
  return real;
}

function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}
