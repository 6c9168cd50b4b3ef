import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Opens a regular file for reading, or gives undefined: a repository's symlink or a task's own
 * process may put a device (/dev/zero never ends), a FIFO (blocks forever) or a socket where a file is
 * expected. Opened without blocking, then checked on the descriptor itself, so it cannot be swapped.
 */
export function openRegularFile(file: string, flags = 0): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | flags);
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    // Missing, unreadable, or a symlink where none may be: nothing to read.
  }
  if (fd !== undefined) closeSync(fd);
  return undefined;
}

/**
 * Up to `limit` bytes of an open file from its start, and whether it holds more. The buffer is sized by
 * the file as it is now (a task's file is usually small or empty, and zeroing a buffer of the whole limit
 * for each task cost more than reading it) and grows if the file grows meanwhile.
 */
export function readAtMost(fd: number, limit: number): { bytes: Buffer; more: boolean } {
  let buffer = Buffer.allocUnsafe(Math.min(limit, fstatSync(fd).size) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) break;
      const grown = Buffer.allocUnsafe(Math.min(limit + 1, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  // Only what was read leaves: the rest of an unsafe buffer is whatever memory held before.
  return { bytes: buffer.subarray(0, Math.min(length, limit)), more: length > limit };
}
