import { describe, expect, it } from 'vitest';
import { useProjectFixture } from '../task-fixture.ts';
import { useTestApp } from '../test-app.ts';

/**
 * A restored Semaphore `string` key may stand where a login is needed (the API refuses that, a backup
 * cannot be refused for it): the task fails saying why. That it opens a vault is in task-tools.test.ts;
 * the store side runs on all databases in semaphore-clients.
 */
describe('a Semaphore string key restored as a repository key', () => {
  const t = useTestApp('sqlite');
  const p = useProjectFixture(t, { 'site.yml': 'echo never runs\n' });

  it('fails the task, saying why', async () => {
    const backup = {
      meta: { name: 'String key as git key' },
      keys: [{ name: 'Token', type: 'string' }],
      repositories: [{ name: 'Scripts', git_url: p.repoDir, git_branch: 'main', ssh_key: 'Token' }],
      environments: [{ name: 'Empty', json: '{}' }],
      templates: [{ name: 'Run', app: 'bash', playbook: 'site.yml', repository: 'Scripts', environment: 'Empty' }],
    };
    const restored = await t.request('POST', '/api/projects/restore', { as: t.adminCookie, body: backup });
    expect(restored.status, restored.text).toBe(200);
    const base = `/api/project/${(restored.body as { id: number }).id}`;
    const [template] = (await t.request('GET', `${base}/templates`, { as: t.adminCookie })).body as { id: number }[];
    const started = await t.request('POST', `${base}/tasks`, {
      as: t.adminCookie,
      body: { template_id: template?.id },
    });
    expect(started.status, started.text).toBe(201);
    const taskId = (started.body as { id: number }).id;
    const deadline = Date.now() + 30_000;
    let status = '';
    while (status !== 'error' && status !== 'success' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = ((await t.request('GET', `${base}/tasks/${taskId}`, { as: t.adminCookie })).body as { status: string })
        .status;
    }
    const output = (
      (await t.request('GET', `${base}/tasks/${taskId}/output`, { as: t.adminCookie })).body as { output: string }[]
    ).map((line) => line.output);
    expect(status, output.join('\n')).toBe('error');
    expect(output.join('\n')).toMatch(
      /Access key "Token" holds a single value \(type string\) and cannot be used to log in/,
    );
  });
});
