import { describe, expect, it } from 'vitest';
import { addMember } from './task-fixture.ts';
import { createTestApp, useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('projects and team on %s', (dialect) => {
  const t = useTestApp(dialect);

  async function createProject(name: string, as = t.adminCookie): Promise<number> {
    const response = await t.request('POST', '/api/projects', { as, body: { name } });
    expect(response.status).toBe(201);
    return (response.body as { id: number }).id;
  }

  it('creating a project makes the creator its owner', async () => {
    const id = await createProject('Alpha');
    expect((await t.request('GET', `/api/project/${id}/role`, { as: t.adminCookie })).body).toEqual({
      role: 'owner',
      permissions: 15,
    });
    const team = (await t.request('GET', `/api/project/${id}/users?sort=name&order=asc`, { as: t.adminCookie })).body;
    expect(team).toEqual([expect.objectContaining({ username: 'admin', role: 'owner' })]);
  });

  it('validates name and max_parallel_tasks with the seeded messages', async () => {
    const cases: [unknown, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{ name: 'x', max_parallel_tasks: 1.5 }, 'Must be integer'],
      [{ name: 'x', max_parallel_tasks: '3' }, 'Must be integer'],
      [{ name: 'x', max_parallel_tasks: -1 }, 'Must be 0 or greater'],
    ];
    for (const [body, error] of cases) {
      const response = await t.request('POST', '/api/projects', { as: t.adminCookie, body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error });
    }
  });

  it('saves every project field and refuses a body id that differs from the URL', async () => {
    const id = await createProject('Beta');
    const saved = await t.request('PUT', `/api/project/${id}`, {
      as: t.adminCookie,
      body: { id, name: 'Beta 2', alert: true, alert_chat: '-100200', max_parallel_tasks: 3, type: '' },
    });
    expect(saved.status).toBe(204);
    expect((await t.request('GET', `/api/project/${id}`, { as: t.adminCookie })).body).toMatchObject({
      id,
      name: 'Beta 2',
      alert: true,
      alert_chat: '-100200',
      max_parallel_tasks: 3,
    });
    const mismatch = await t.request('PUT', `/api/project/${id}`, {
      as: t.adminCookie,
      body: { id: id + 1000, name: 'X' },
    });
    expect(mismatch.body).toMatchObject({ error: 'Project ID in body and URL must be the same' });
  });

  it('lists only the projects a user belongs to, sorted by name; admins see all', async () => {
    const gina = await t.createUser('gina');
    const zeta = await createProject('Zeta');
    const eta = await createProject('Eta');
    await createProject('Hidden from gina');
    for (const projectId of [zeta, eta]) {
      await addMember(t, `/api/project/${projectId}`, gina.id, 'guest');
    }
    const mine = (await t.request('GET', '/api/projects', { as: gina.cookie })).body as { name: string }[];
    expect(mine.map((p) => p.name)).toEqual(['Eta', 'Zeta']);
    const all = (await t.request('GET', '/api/projects', { as: t.adminCookie })).body as { name: string }[];
    expect(all.map((p) => p.name)).toContain('Hidden from gina');
  });

  it('deleting a project removes it with its team', async () => {
    const id = await createProject('Doomed');
    expect((await t.request('DELETE', `/api/project/${id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('GET', `/api/project/${id}`, { as: t.adminCookie })).status).toBe(404);
    expect((await t.request('GET', `/api/project/${id}/users`, { as: t.adminCookie })).status).toBe(404);
  });

  it('non-admins may create projects only when the server allows it', async () => {
    const open = await createTestApp(dialect, { non_admin_can_create_project: true });
    try {
      const hank = await open.createUser('hank');
      expect((await open.request('GET', '/api/user', { as: hank.cookie })).body).toMatchObject({
        can_create_project: true,
      });
      expect((await open.request('POST', '/api/projects', { as: hank.cookie, body: { name: 'Hank' } })).status).toBe(
        201,
      );
    } finally {
      await open.close();
    }
    const ivy = await t.createUser('ivy');
    expect((await t.request('GET', '/api/user', { as: ivy.cookie })).body).toMatchObject({ can_create_project: false });
    expect((await t.request('POST', '/api/projects', { as: ivy.cookie, body: { name: 'Ivy' } })).status).toBe(403);
  });

  it('team: adds members, sorts them, changes roles, removes them, and never loses the last owner', async () => {
    const id = await createProject('Team');
    const zed = await t.createUser('zed');
    const amy = await t.createUser('amy');
    await addMember(t, `/api/project/${id}`, zed.id, 'manager');
    await addMember(t, `/api/project/${id}`, amy.id, 'guest');

    const duplicate = await t.request('POST', `/api/project/${id}/users`, {
      as: t.adminCookie,
      body: { user_id: amy.id, role: 'guest' },
    });
    expect(duplicate.status).toBe(409);
    const badRole = await t.request('POST', `/api/project/${id}/users`, {
      as: t.adminCookie,
      body: { user_id: amy.id, role: 'king' },
    });
    expect(badRole.status).toBe(400);
    const noUser = await t.request('POST', `/api/project/${id}/users`, { as: t.adminCookie, body: { role: 'guest' } });
    expect(noUser.body).toMatchObject({ error: 'User is required' });
    const noRole = await t.request('POST', `/api/project/${id}/users`, {
      as: t.adminCookie,
      body: { user_id: amy.id },
    });
    expect(noRole.body).toMatchObject({ error: 'Role is required' });
    const unknownUser = await t.request('POST', `/api/project/${id}/users`, {
      as: t.adminCookie,
      body: { user_id: 999999, role: 'guest' },
    });
    expect(unknownUser.status).toBe(400);

    const byName = (await t.request('GET', `/api/project/${id}/users?sort=name&order=asc`, { as: amy.cookie }))
      .body as { username: string }[];
    expect(byName.map((m) => m.username)).toEqual(['admin', 'amy', 'zed']);
    const byUsernameDesc = (
      await t.request('GET', `/api/project/${id}/users?sort=username&order=desc`, { as: amy.cookie })
    ).body as { username: string }[];
    expect(byUsernameDesc.map((m) => m.username)).toEqual(['zed', 'amy', 'admin']);
    const unknownSort = await t.request('GET', `/api/project/${id}/users?sort=drop&order=sideways`, { as: amy.cookie });
    expect(unknownSort.status).toBe(200);

    expect(
      (
        await t.request('PUT', `/api/project/${id}/users/${amy.id}`, {
          as: t.adminCookie,
          body: { role: 'task_runner' },
        })
      ).status,
    ).toBe(204);
    expect((await t.request('GET', `/api/project/${id}/role`, { as: amy.cookie })).body).toEqual({
      role: 'task_runner',
      permissions: 1,
    });

    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    const demoteLast = await t.request('PUT', `/api/project/${id}/users/${me.id}`, {
      as: t.adminCookie,
      body: { role: 'guest' },
    });
    expect(demoteLast.body).toMatchObject({ error: 'A project must keep at least one owner' });
    const removeLast = await t.request('DELETE', `/api/project/${id}/users/${me.id}`, { as: t.adminCookie });
    expect(removeLast.status).toBe(400);

    expect(
      (await t.request('PUT', `/api/project/${id}/users/${zed.id}`, { as: t.adminCookie, body: { role: 'owner' } }))
        .status,
    ).toBe(204);
    expect((await t.request('DELETE', `/api/project/${id}/users/${me.id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('DELETE', `/api/project/${id}/users/${amy.id}`, { as: zed.cookie })).status).toBe(204);
    expect((await t.request('GET', `/api/project/${id}`, { as: amy.cookie })).status).toBe(404);
    expect((await t.request('DELETE', `/api/project/${id}/users/${amy.id}`, { as: zed.cookie })).status).toBe(404);
  });

  it('members leave a project; the last owner cannot', async () => {
    const id = await createProject('Leaving');
    const kim = await t.createUser('kim');
    await addMember(t, `/api/project/${id}`, kim.id, 'task_runner');
    expect((await t.request('DELETE', `/api/project/${id}/me`, { as: kim.cookie })).status).toBe(204);
    expect((await t.request('GET', `/api/project/${id}`, { as: kim.cookie })).status).toBe(404);
    const owner = await t.request('DELETE', `/api/project/${id}/me`, { as: t.adminCookie });
    expect(owner.body).toMatchObject({ error: 'A project must keep at least one owner' });
  });

  it('an owner steps down by leaving, removal or demotion of themselves under one rule: never the last owner', async () => {
    const id = await createProject('Stepping down');
    const ann = await t.createUser('ann');
    const bob = await t.createUser('bob');
    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    await addMember(t, `/api/project/${id}`, ann.id, 'owner');
    await addMember(t, `/api/project/${id}`, bob.id, 'owner');
    expect((await t.request('DELETE', `/api/project/${id}/users/${me.id}`, { as: t.adminCookie })).status).toBe(204);
    // Two owners left: one of them may leave through /me as through the team list.
    expect((await t.request('DELETE', `/api/project/${id}/me`, { as: bob.cookie })).status).toBe(204);
    const last = 'A project must keep at least one owner';
    expect((await t.request('DELETE', `/api/project/${id}/me`, { as: ann.cookie })).body).toMatchObject({
      error: last,
    });
    expect((await t.request('DELETE', `/api/project/${id}/users/${ann.id}`, { as: ann.cookie })).body).toMatchObject({
      error: last,
    });
    expect(
      (await t.request('PUT', `/api/project/${id}/users/${ann.id}`, { as: ann.cookie, body: { role: 'manager' } }))
        .body,
    ).toMatchObject({ error: last });
    expect((await t.request('GET', `/api/project/${id}/role`, { as: ann.cookie })).body).toMatchObject({
      role: 'owner',
    });
  });

  type Owner = { id: number; cookie: string };
  type Call = [method: 'PUT' | 'DELETE', url: string, as: string];
  interface StepDown {
    way: string;
    /** The loser is told the rule (400), unless the winner took its access first (a guest: 403; no member: 404). */
    loserMayGet: number[];
    calls: (projectId: number, a: Owner, b: Owner) => Call[];
  }

  /** Two owners of a project step down at once, a few rounds of each way: one wins, one owner stays. */
  async function raceTwoOwners(ways: StepDown[]): Promise<void> {
    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    for (const { way, loserMayGet, calls } of ways) {
      for (let round = 0; round < 4; round++) {
        const id = await createProject(`Two owners who ${way} ${round}`);
        const slug = `${way.replaceAll(' ', '-')}-${round}`;
        const a = await t.createUser(`a-${slug}`);
        const b = await t.createUser(`b-${slug}`);
        await addMember(t, `/api/project/${id}`, a.id, 'owner');
        await addMember(t, `/api/project/${id}`, b.id, 'owner');
        const adminLeft = await t.request('DELETE', `/api/project/${id}/users/${me.id}`, { as: t.adminCookie });
        expect(adminLeft.status).toBe(204);
        const answers = await Promise.all(
          calls(id, a, b).map(([method, url, as]) =>
            t.request(method, url, { as, ...(method === 'PUT' ? { body: { role: 'guest' } } : {}) }),
          ),
        );
        const context = `${way}, round ${round}: ${answers.map((answer) => answer.text).join(' | ')}`;
        expect(
          answers.filter((answer) => answer.status === 204),
          context,
        ).toHaveLength(1);
        const loser = answers.find((answer) => answer.status !== 204);
        expect(loserMayGet, context).toContain(loser?.status);
        if (loser?.status === 400)
          expect(loser.body).toMatchObject({ error: expect.stringMatching(/at least one owner|only owner of/) });
        const team = (await t.request('GET', `/api/project/${id}/users?sort=name&order=asc`, { as: t.adminCookie }))
          .body as { role: string }[];
        expect(team.filter((member) => member.role === 'owner').length, context).toBe(1);
      }
    }
  }

  it('keeps an owner when both owners step down at the same time, by demotion, removal or leaving', async () => {
    await raceTwoOwners([
      {
        way: 'demote each other',
        loserMayGet: [400, 403],
        calls: (p, a, b) => [
          ['PUT', `/api/project/${p}/users/${b.id}`, a.cookie],
          ['PUT', `/api/project/${p}/users/${a.id}`, b.cookie],
        ],
      },
      {
        way: 'remove each other',
        loserMayGet: [400, 404],
        calls: (p, a, b) => [
          ['DELETE', `/api/project/${p}/users/${b.id}`, a.cookie],
          ['DELETE', `/api/project/${p}/users/${a.id}`, b.cookie],
        ],
      },
      {
        way: 'both leave',
        loserMayGet: [400],
        calls: (p, a, b) => [
          ['DELETE', `/api/project/${p}/me`, a.cookie],
          ['DELETE', `/api/project/${p}/me`, b.cookie],
        ],
      },
    ]);
  });

  it('keeps an owner when an owner is deleted while the other leaves or is deleted too', async () => {
    await raceTwoOwners([
      {
        way: 'leave while the other is deleted',
        loserMayGet: [400],
        calls: (p, a, b) => [
          ['DELETE', `/api/project/${p}/me`, a.cookie],
          ['DELETE', `/api/users/${b.id}`, t.adminCookie],
        ],
      },
      {
        way: 'are both deleted',
        loserMayGet: [400],
        calls: (_p, a, b) => [
          ['DELETE', `/api/users/${a.id}`, t.adminCookie],
          ['DELETE', `/api/users/${b.id}`, t.adminCookie],
        ],
      },
    ]);
  });

  it('records project and team changes as project events, newest first', async () => {
    const id = await createProject('Audited');
    const lee = await t.createUser('lee');
    await addMember(t, `/api/project/${id}`, lee.id, 'guest');
    await t.request('PUT', `/api/project/${id}`, { as: t.adminCookie, body: { name: 'Audited 2' } });
    const events = (await t.request('GET', `/api/project/${id}/events/last`, { as: lee.cookie })).body as {
      description: string;
      username: string;
      project_name: string;
    }[];
    expect(events.map((e) => e.description)).toEqual([
      'Project Audited 2 updated',
      'User lee added to the team as guest',
      'Project Audited created',
    ]);
    expect(events[0]).toMatchObject({ username: 'admin', project_name: 'Audited 2' });
    const mine = (await t.request('GET', '/api/events/last', { as: lee.cookie })).body as {
      project_id: number | null;
    }[];
    expect(mine.every((e) => e.project_id === null || e.project_id === id)).toBe(true);
  });

  it('shows events of no project only to administrators, or to the user who did them or whom they are about', async () => {
    const vera = await t.createUser('vera');
    const otto = await t.createUser('otto');
    const secret = await createProject('Acquisition of Initech');
    expect((await t.request('DELETE', `/api/project/${secret}`, { as: t.adminCookie })).status).toBe(204);
    const runner = await t.request('POST', '/api/runners', {
      as: t.adminCookie,
      body: { name: 'dmz runner', webhook: '', max_parallel_tasks: 1, active: true },
    });
    expect(runner.status).toBe(201);
    const read = async (cookie: string) =>
      ((await t.request('GET', '/api/events/last', { as: cookie })).body as { description: string }[]).map(
        (e) => e.description,
      );
    const admin = await read(t.adminCookie);
    expect(admin).toEqual(
      expect.arrayContaining([
        'Project Acquisition of Initech deleted',
        expect.stringMatching(/dmz runner/),
        'User vera created',
        'User otto created',
      ]),
    );
    const seenByVera = await read(vera.cookie);
    expect(seenByVera).toContain('User vera created');
    expect(seenByVera.filter((d) => /Initech|dmz runner|User otto/.test(d))).toEqual([]);
    expect((await t.request('GET', '/api/events', { as: otto.cookie })).body).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ description: 'User vera created' })]),
    );
  });
});
