import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { LogLine } from '../../live/live-hub.ts';

/** A spool file's name: the task's id and this suffix, nothing a caller chooses. */
const SUFFIX = '.lines';

/**
 * What is read back of a spool file at most, from its end: a store that hung for hours under a task printing
 * fast could leave a file too large to read at once, and a start that runs out of memory would never end.
 */
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** The last `MAX_READ_BYTES` of a file at most, from the start of a record. */
function readTail(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, MAX_READ_BYTES);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const got = readSync(fd, buffer, read, length - read, size - length + read);
      if (got === 0) break;
      read += got;
    }
    const text = buffer.subarray(0, read).toString('utf8');
    return length < size ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}

/** Where a store is, without its credentials (a new password is the same store). */
function storeAddress(url: string): string {
  try {
    const address = new URL(url);
    address.username = '';
    address.password = '';
    return address.href;
  } catch {
    // SQLite: a file path.
    return path.resolve(url);
  }
}

/**
 * The spool directory of a data directory for one store. Task ids are the store's own: a data directory
 * later pointed at another store (a restored copy, a new cluster) must not give that store's task of the
 * same id the lines of a task it never had, so each store gets a folder of its own.
 */
export function spoolDirOf(dataDir: string, dialect: string, url: string): string {
  const store = createHash('sha256')
    .update(`${dialect}\n${storeAddress(url)}`)
    .digest('hex')
    .slice(0, 16);
  return path.join(dataDir, 'task-log-spool', `${dialect}-${store}`);
}

/** One running task's spool file: lines read from the task, kept until the store has them. */
export interface SpoolFile {
  /** Adds lines read but perhaps not stored yet. */
  append(lines: readonly LogLine[]): void;
  /** Forgets every line so far: the store has them all. */
  clear(): void;
  /** Removes the file: the task's log is closed. */
  remove(): void;
}

function isLogLine(value: unknown): value is LogLine {
  if (typeof value !== 'object' || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.seq === 'number' &&
    Number.isSafeInteger(line.seq) &&
    line.seq >= 0 &&
    typeof line.time === 'string' &&
    typeof line.output === 'string'
  );
}

/**
 * The lines a task running in this process printed and this process read but may not have stored yet, in a
 * file per task under the data directory (written as they are read, synchronously, so a process killed at any
 * moment leaves them on disk; the store may lag far behind under load). The next process of the same data
 * directory stores what the store lacks (see task-recovery.ts). A file holds a record per write, one line of
 * JSON each; a record cut short by the kill is ignored.
 */
export function createTaskLogSpool(dir: string, logger: Pick<FastifyBaseLogger, 'warn'>) {
  let ready = false;
  const fileOf = (taskId: number) => path.join(dir, `${taskId}${SUFFIX}`);
  const ensureDir = () => {
    if (ready) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    ready = true;
  };

  return {
    /** The task's spool file, created on its first lines. A failing disk costs the spool, never the task. */
    open(taskId: number): SpoolFile {
      let fd: number | undefined;
      let failed = false;
      const attempt = (what: string, work: () => void) => {
        if (failed) return;
        try {
          work();
        } catch (error) {
          failed = true;
          logger.warn({ err: error, taskId }, `could not ${what} the spool of the task's log lines`);
        }
      };
      return {
        append(lines) {
          if (lines.length === 0) return;
          attempt('write', () => {
            if (fd === undefined) {
              ensureDir();
              fd = openSync(fileOf(taskId), 'a', 0o600);
              ftruncateSync(fd, 0);
            }
            writeSync(fd, `${JSON.stringify(lines)}\n`);
          });
        },
        clear() {
          if (fd !== undefined) attempt('clear', () => ftruncateSync(fd as number, 0));
        },
        remove() {
          if (fd === undefined) return;
          const open = fd;
          fd = undefined;
          failed = false;
          attempt('remove', () => {
            closeSync(open);
            rmSync(fileOf(taskId), { force: true });
          });
        },
      };
    },

    /** The tasks a spool file is left for: a process before this one was killed while they ran. */
    listLeft(): number[] {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      return names.flatMap((name) => {
        const id = name.endsWith(SUFFIX) ? Number(name.slice(0, -SUFFIX.length)) : Number.NaN;
        return Number.isSafeInteger(id) && id > 0 && `${id}${SUFFIX}` === name ? [id] : [];
      });
    },

    /** The lines left for a task, in the order they were read (the newest 64 MiB of them at most). */
    read(taskId: number): LogLine[] {
      const lines: LogLine[] = [];
      for (const record of readTail(fileOf(taskId)).split('\n')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(record);
        } catch {
          continue;
        }
        if (Array.isArray(parsed)) lines.push(...parsed.filter(isLogLine));
      }
      return lines;
    },

    /** Forgets what was left for a task. */
    discard(taskId: number): void {
      rmSync(fileOf(taskId), { force: true });
    },
  };
}

export type TaskLogSpool = ReturnType<typeof createTaskLogSpool>;
