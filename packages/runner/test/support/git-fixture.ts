import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Gantry Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Gantry Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** A real git repository on disk with the given files committed on branch main. */
export function createGitRepository(
  files: Record<string, string>,
  message = 'Initial commit',
): { dir: string; url: string; commit(files: Record<string, string>, message: string): string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const commit = (more: Record<string, string>, msg: string) => {
    for (const [name, content] of Object.entries(more)) {
      const file = path.join(dir, name);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      if (name.endsWith('.sh')) chmodSync(file, 0o755);
    }
    git('add', '-A');
    git('commit', '-q', '-m', msg);
    return git('rev-parse', 'HEAD');
  };
  commit(files, message);
  return { dir, url: `file://${dir}`, commit };
}
