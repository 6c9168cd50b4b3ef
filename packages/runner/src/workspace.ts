import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A private directory for one task's files (keys, passwords, variables); removed when the task ends. */
export function createTaskWorkspace(root: string, taskId: number) {
  const dir = path.join(root, 'tasks', `task_${taskId}`);
  let created = false;
  let counter = 0;
  // Made on first use: most script tasks need no private files at all.
  const ensureDir = () => {
    if (created) return;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    created = true;
  };
  return {
    dir,
    /** Writes a file only the server's user can read; returns its path. */
    writePrivateFile(name: string, content: string, mode = 0o600): string {
      ensureDir();
      counter += 1;
      const file = path.join(dir, `${counter}-${name}`);
      writeFileSync(file, content, { mode });
      chmodSync(file, mode);
      return file;
    },
    cleanup(): void {
      if (created) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TaskWorkspace = ReturnType<typeof createTaskWorkspace>;
