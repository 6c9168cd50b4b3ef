import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';

const RELEASE = `name: Release
description: from git
variables:
  - name: version
    required: true
steps:
  - key: build
    kind: template
    template: Build
    outputs: [artifact]
  - key: approve
    kind: approval
    approvers: { users: [wf-cli-manager], roles: [owner] }
    required: 2
  - key: deploy
    kind: template
    template: Deploy
    inputs:
      - { variable: ref, source: variable, name: version }
edges:
  - { from: build, to: approve, on: success }
  - { from: approve, to: deploy, on: success }
`;

// The command talks HTTP to a server: the store behind it does not change what it does.
describe('gantry workflow validate, diff and apply', () => {
  const t = useTestApp('sqlite');
  let p: ProjectFixture;
  let dir: string;
  let env: Record<string, string>;
  let out: string[];
  let err: string[];

  const run = async (...argv: string[]) => {
    out = [];
    err = [];
    return runCli(argv, { print: (l) => out.push(l), printError: (l) => err.push(l), env });
  };
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    p = await createProjectFixture(t, { 'run.sh': 'echo hi\n' });
    await p.createTemplate({ name: 'Build', playbook: 'run.sh' });
    await p.createTemplate({ name: 'Deploy', playbook: 'run.sh', survey_vars: [{ name: 'ref', title: 'Ref' }] });
    const manager = await t.createUser('wf-cli-manager');
    await t.request('POST', `${p.base}/users`, { as: t.adminCookie, body: { user_id: manager.id, role: 'manager' } });
    const token = (await t.request('POST', '/api/user/tokens', { as: manager.cookie, body: { name: 'ci' } })).body as {
      id: string;
    };
    env = {
      GANTRY_URL: `http://127.0.0.1:${address.port}`,
      GANTRY_TOKEN: token.id,
      GANTRY_PROJECT: String(p.projectId),
    };
    dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-workflow-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('validate names every problem of a file and accepts a good one', async () => {
    expect(await run('workflow', 'validate', write('good.yaml', RELEASE))).toBe(0);
    expect(out).toEqual([expect.stringMatching(/good\.yaml: workflow "Release" is valid\.$/)]);

    const bad = RELEASE.replace('template: Deploy', 'template: Missing').replace('[wf-cli-manager]', '[nobody]');
    expect(await run('workflow', 'validate', write('bad.yaml', bad))).toBe(1);
    expect(err.join('\n').split('\n').slice(1)).toEqual([
      '  Step "approve": approver "nobody" not found in this project',
      '  Step "deploy": template "Missing" not found in this project',
    ]);

    const cycle = RELEASE.replace('edges:\n', 'edges:\n  - { from: deploy, to: build, on: failure }\n');
    expect(await run('workflow', 'validate', write('cycle.yaml', cycle))).toBe(1);
    expect(err.join('\n')).toContain('Steps form a cycle: build → approve → deploy → build');

    expect(await run('workflow', 'validate', write('broken.yaml', 'name: [unclosed'))).toBe(1);
    expect(err.join('\n')).toMatch(/broken\.yaml: Not a YAML file/);
    expect(await run('workflow', 'validate', write('empty.yaml', 'name: x\nsteps: []\n'))).toBe(1);
    expect(err.join('\n')).toContain('steps: A workflow needs at least one step');
  });

  it('diff shows a new workflow, apply creates it, then both report it up to date', async () => {
    const file = write('release.yaml', RELEASE);
    expect(await run('workflow', 'diff', file)).toBe(0);
    expect(out[0]).toBe('--- workflow "Release" (new)');
    expect(out).toContain('+ name: Release');

    expect(await run('workflow', 'apply', file)).toBe(0);
    expect(out).toEqual([expect.stringMatching(/^Created workflow "Release" \(id \d+, revision 1\)\.$/)]);
    expect(await run('workflow', 'diff', file)).toBe(0);
    expect(out).toEqual(['Workflow "Release" is up to date (revision 1).']);
    expect(await run('workflow', 'apply', file)).toBe(0);
    expect(out).toEqual(['Workflow "Release" is unchanged (revision 1).']);
  });

  it('diff shows a changed line and apply saves it as the next revision', async () => {
    const file = write('release.yaml', RELEASE.replace('description: from git', 'description: second'));
    expect(await run('workflow', 'diff', file)).toBe(0);
    expect(out.filter((line) => /^[-+] /.test(line))).toEqual(['- description: from git', '+ description: second']);
    expect(await run('workflow', 'apply', file)).toBe(0);
    expect(out).toEqual(['Saved workflow "Release" as revision 2.']);
    const list = (await t.request('GET', `${p.base}/workflows`, { as: t.adminCookie })).body;
    expect(list).toEqual([expect.objectContaining({ name: 'Release', description: 'second', revision: 2 })]);
  });

  it('reads the token from a file, never from the command line where the process list would show it', async () => {
    const file = write('release.yaml', RELEASE);
    const { GANTRY_TOKEN: token, ...withoutToken } = env;
    const saved = env;
    env = withoutToken;
    try {
      expect(await run('workflow', 'validate', file, '--token-file', write('token', `${token}\n`))).toBe(0);
      expect(out).toEqual([expect.stringMatching(/workflow "Release" is valid\.$/)]);
      expect(await run('workflow', 'validate', file, '--token', token ?? '')).toBe(1);
      expect(err.join('\n')).toMatch(/unknown option '--token'/);
      expect(await run('workflow', 'validate', file, '--server', 'http://ci:hunter2@127.0.0.1:1')).toBe(1);
      expect(err).toEqual(['The server URL must not hold a user name or password; the token is the credential']);
      expect(await run('workflow', 'validate', file, '--token-file', path.join(dir, 'missing'))).toBe(1);
      expect(err.join('\n')).toMatch(/^Cannot read the token file .*missing/);
    } finally {
      env = saved;
    }
  });

  it('refuses without a token or with one of a user who may not edit', async () => {
    const file = write('release.yaml', RELEASE);
    const { GANTRY_TOKEN: _, ...withoutToken } = env;
    env = withoutToken;
    expect(await run('workflow', 'apply', file)).toBe(1);
    expect(err).toEqual(['An API token is required: GANTRY_TOKEN or --token-file']);
    const guest = await t.createUser('wf-cli-guest');
    await t.request('POST', `${p.base}/users`, { as: t.adminCookie, body: { user_id: guest.id, role: 'guest' } });
    const token = (await t.request('POST', '/api/user/tokens', { as: guest.cookie, body: { name: 'ci' } })).body as {
      id: string;
    };
    env = { ...withoutToken, GANTRY_TOKEN: token.id };
    expect(await run('workflow', 'apply', file)).toBe(1);
    expect(err.join('\n')).toMatch(/\(403\)/);
  });
});
