import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitAskpassEnvironment } from '../src/credentials.ts';
import { createTaskWorkspace } from '../src/workspace.ts';

describe("git's askpass", () => {
  it("answers the repository's host only: a submodule or a redirect elsewhere is told nothing", () => {
    const workspace = createTaskWorkspace(mkdtempSync(path.join(os.tmpdir(), 'gantry-askpass-')), 1);
    const env = createGitAskpassEnvironment(
      workspace,
      { type: 'login_password', login: 'deploy', password: "pa'ss word" },
      'git.example.com:8443',
    );
    const ask = (prompt: string) => {
      try {
        return execFileSync(env.GIT_ASKPASS ?? '', [prompt], { encoding: 'utf8' });
      } catch {
        return undefined;
      }
    };
    expect(ask("Username for 'https://git.example.com:8443': ")).toBe('deploy');
    expect(ask("Password for 'https://deploy@git.example.com:8443': ")).toBe("pa'ss word");
    for (const prompt of [
      "Username for 'https://evil.example': ",
      "Password for 'https://deploy@evil.example': ",
      "Username for 'https://git.example.com': ",
      "Password for 'https://deploy@git.example.com:8443.evil.example': ",
    ])
      expect(ask(prompt), prompt).toBeUndefined();
    workspace.cleanup();
  });
});
