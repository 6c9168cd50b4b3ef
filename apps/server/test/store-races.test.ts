import { beforeAll, describe, expect, it } from 'vitest';
import { describeStoreConflict } from '../src/db/errors.ts';
import { createProjectFixture, type ProjectFixture } from './task-fixture.ts';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

const failureOf = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('the statement was expected to fail');
};

describe.each(dialects)('requests that lose a race in the store on %s', (dialect) => {
  const t = useTestApp(dialect);
  let p: ProjectFixture;

  beforeAll(async () => {
    p = await createProjectFixture(t, { 'job.sh': 'echo job\n' });
  });

  it("reads each database's foreign key and deadlock errors as a conflict, and nothing else", async () => {
    const db = t.runtime.connection.db;
    const missing = await failureOf(() =>
      db.insertInto('view').values({ project_id: 2_000_000_000, title: 'orphan', position: 0 }).execute(),
    );
    expect(describeStoreConflict(missing)).toMatch(/deleted at the same time|conflicts with a change/);
    const referenced = await failureOf(() => db.deleteFrom('access_key').where('id', '=', p.noneKeyId).execute());
    expect(describeStoreConflict(referenced)).toMatch(/made to use this at the same time|conflicts with a change/);
    expect(describeStoreConflict(new Error('connection refused'))).toBeUndefined();
    expect(describeStoreConflict({ errno: 1213, code: 'ER_LOCK_DEADLOCK' })).toMatch(/conflicts with a change/);
  });

  it('answers a 4xx, never a 500, when a resource is deleted while something new is made to use it', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const key = await t.request('POST', `${p.base}/keys`, {
        as: t.adminCookie,
        body: { name: `racing key ${round}`, type: 'none' },
      });
      const keyId = (key.body as { id: number }).id;
      const template = await p.createTemplate({ name: `racing ${round}`, playbook: 'job.sh' });
      const answers = await Promise.all([
        t.request('DELETE', `${p.base}/keys/${keyId}`, { as: t.adminCookie }),
        t.request('POST', `${p.base}/repositories`, {
          as: t.adminCookie,
          body: { name: `racing repo ${round}`, git_url: '/srv/racing', git_branch: 'main', ssh_key_id: keyId },
        }),
        t.request('DELETE', `${p.base}/templates/${template}`, { as: t.adminCookie }),
        t.request('POST', `${p.base}/tasks`, { as: t.adminCookie, body: { template_id: template } }),
      ]);
      statuses.push(...answers.map((answer) => answer.status));
      for (const answer of answers.filter((a) => a.status >= 400))
        expect(answer.body, answer.text).toHaveProperty('error');
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
