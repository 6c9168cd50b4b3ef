import { USERNAME_INVISIBLE_CHARACTERS, USERNAME_SURROUNDING_SPACE } from '@gantry/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('users on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('an admin creates, reads, updates and deletes a user, each change recorded as an event', async () => {
    t.secrets.add('s3cret-Pass');
    const created = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'Alice', name: 'Alice A', email: 'Alice@Example.com', password: 's3cret-Pass', alert: true },
    });
    expect(created.status).toBe(201);
    const alice = created.body as { id: number };
    expect(created.body).toMatchObject({
      username: 'alice',
      email: 'alice@example.com',
      alert: true,
      admin: false,
      external: false,
    });

    const updated = await t.request('PUT', `/api/users/${alice.id}`, {
      as: t.adminCookie,
      body: { id: alice.id, username: 'alice', name: 'Alice B', email: 'alice@example.com', admin: true, alert: true },
    });
    expect(updated.status).toBe(204);
    expect((await t.request('GET', `/api/users/${alice.id}`, { as: t.adminCookie })).body).toMatchObject({
      name: 'Alice B',
      admin: true,
      alert: true,
    });
    await t.login('alice', 's3cret-Pass');

    expect((await t.request('DELETE', `/api/users/${alice.id}`, { as: t.adminCookie })).status).toBe(204);
    expect((await t.request('GET', `/api/users/${alice.id}`, { as: t.adminCookie })).status).toBe(404);
    const events = (await t.request('GET', '/api/events', { as: t.adminCookie })).body as { description: string }[];
    expect(events.map((e) => e.description)).toEqual(
      expect.arrayContaining(['User alice created', 'User alice updated', 'User alice deleted']),
    );
  });

  it('validates users with the seeded messages', async () => {
    const base = { username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'pw-bob-123' };
    for (const [field, message] of [
      ['name', 'Name is required'],
      ['username', 'Username is required'],
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ] as const) {
      const response = await t.request('POST', '/api/users', { as: t.adminCookie, body: { ...base, [field]: '' } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: message });
    }
  });

  it('sets no password shorter than 8 characters, by any route, while an empty one on update changes nothing', async () => {
    const created = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'shorty', name: 'Shorty', email: 'shorty@example.com', password: 'seven-7' },
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ error: 'Password must be at least 8 characters' });
    const shorty = await t.createUser('shorty');
    const user = { username: 'shorty', name: 'Shorty', email: 'shorty@example.com' };
    const tooShort = [
      ['PUT', `/api/users/${shorty.id}`, { ...user, password: 'x' }],
      ['POST', `/api/users/${shorty.id}/password`, { password: '1234567' }],
      ['POST', `/api/users/${shorty.id}/password`, { password: '       ' }],
    ] as const;
    for (const [method, url, body] of tooShort) {
      const response = await t.request(method, url, { as: t.adminCookie, body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: 'Password must be at least 8 characters' });
    }
    expect(
      (await t.request('PUT', `/api/users/${shorty.id}`, { as: t.adminCookie, body: { ...user, password: '' } }))
        .status,
    ).toBe(204);
    await t.login('shorty', 'shorty-Secret-1');
    const eight = await t.request('POST', `/api/users/${shorty.id}/password`, {
      as: t.adminCookie,
      body: { password: '12345678' },
    });
    expect(eight.status).toBe(204);
    await t.login('shorty', '12345678');
  });

  it('refuses a second user with the same username or email', async () => {
    await t.createUser('carol');
    const sameName = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'CAROL', name: 'C', email: 'other@example.com', password: 'x-pass-1' },
    });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ error: 'A user with this username or email already exists' });
    const sameEmail = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'carol2', name: 'C', email: 'carol@example.com', password: 'x-pass-1' },
    });
    expect(sameEmail.status).toBe(409);
  });

  it("never lets a username be another user's email, nor an email another user's username, on create or update by anyone", async () => {
    // Sign-in takes the oldest user whose username or email matches: Alice, made first, could take Carol's.
    const alice = await t.createUser('alice-x');
    await t.createUser('carol-x');
    const alicePassword = 'alice-x-Secret-1';
    const usernameTaken = { error: "This username is another user's email" };
    const emailTaken = { error: "This email is another user's username" };
    const aliceAs = (username: string, email = 'alice-x@example.com') => ({
      username,
      name: 'Alice',
      email,
      current_password: alicePassword,
    });
    // Sign-in compares lower-cased, so does the rule.
    for (const [as, who] of [
      [alice.cookie, 'herself'],
      [t.adminCookie, 'an admin'],
    ] as const) {
      const username = await t.request('PUT', `/api/users/${alice.id}`, {
        as,
        body: aliceAs('Carol-X@Example.COM'),
      });
      expect(username.status, who).toBe(409);
      expect(username.body).toMatchObject(usernameTaken);
      const email = await t.request('PUT', `/api/users/${alice.id}`, { as, body: aliceAs('alice-x', 'CAROL-X') });
      expect(email.status, who).toBe(409);
      expect(email.body).toMatchObject(emailTaken);
    }
    const created = [
      [{ username: 'carol-x@example.com', email: 'new-1@example.com' }, usernameTaken],
      [{ username: 'new-2', email: 'carol-x' }, emailTaken],
    ] as const;
    for (const [names, refusal] of created) {
      const response = await t.request('POST', '/api/users', {
        as: t.adminCookie,
        body: { ...names, name: 'New', password: 'new-Pass-123' },
      });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject(refusal);
    }
    // Carol still signs in with her email; a user's username may be their own email.
    const carolByEmail = await t.login('carol-x@example.com', 'carol-x-Secret-1');
    expect((await t.request('GET', '/api/user', { as: carolByEmail })).body).toMatchObject({ username: 'carol-x' });
    const own = await t.request('PUT', `/api/users/${alice.id}`, {
      as: alice.cookie,
      body: aliceAs('alice-x@example.com'),
    });
    expect(own.status, own.text).toBe(204);
    await t.login('alice-x@example.com', alicePassword);
  });

  it("keeps the rule when a username and another user's email change to the same name at the same moment", async () => {
    const rounds = 6;
    const pairs: [{ id: number }, { id: number }][] = [];
    for (let i = 0; i < rounds; i++) pairs.push([await t.createUser(`race-a${i}`), await t.createUser(`race-b${i}`)]);
    const put = (id: number, body: Record<string, unknown>) =>
      t.request('PUT', `/api/users/${id}`, { as: t.adminCookie, body: { name: 'Racer', ...body } });
    const outcomes = await Promise.all(
      pairs.map(async ([a, b], i) => {
        const shared = `shared-${i}@example.com`;
        const responses = await Promise.all([
          put(a.id, { username: shared, email: `race-a${i}@example.com` }),
          put(b.id, { username: `race-b${i}`, email: shared }),
          // A new user taking the same name as their email, at the same time again.
          t.request('POST', '/api/users', {
            as: t.adminCookie,
            body: { username: `new-${i}`, name: 'New', email: shared, password: 'new-Pass-123' },
          }),
        ]);
        return responses.map((response) => response.status);
      }),
    );
    expect(outcomes.flat().every((status) => status === 204 || status === 409 || status === 201)).toBe(true);
    const users = (await t.request('GET', '/api/users', { as: t.adminCookie })).body as {
      id: number;
      username: string;
      email: string;
    }[];
    const clashes = users.filter((user) =>
      users.some((other) => other.id !== user.id && other.email === user.username),
    );
    expect(clashes).toEqual([]);
  });

  it('refuses usernames with white space around them or control or invisible characters in them', async () => {
    const quinn = await t.createUser('quinn-x');
    const refusals: [string, string][] = [
      [' quinn', USERNAME_SURROUNDING_SPACE],
      ['quinn\t', USERNAME_SURROUNDING_SPACE],
      ['quinn\u00a0', USERNAME_SURROUNDING_SPACE],
      ['fr\u200bank', USERNAME_INVISIBLE_CHARACTERS],
      ['\u202enniuq', USERNAME_INVISIBLE_CHARACTERS],
      ['fr\u0007ank', USERNAME_INVISIBLE_CHARACTERS],
      ['quinn\u2060', USERNAME_INVISIBLE_CHARACTERS],
      ['fr\ufeffank', USERNAME_INVISIBLE_CHARACTERS],
    ];
    for (const [username, error] of refusals) {
      const body = { username, name: 'Quinn', email: 'quinn-y@example.com', password: 'quinn-Pass-1' };
      const created = await t.request('POST', '/api/users', { as: t.adminCookie, body });
      expect(created.status, JSON.stringify(username)).toBe(400);
      expect(created.body).toMatchObject({ error });
      const updated = await t.request('PUT', `/api/users/${quinn.id}`, {
        as: quinn.cookie,
        body: { username, name: 'Quinn', email: 'quinn-x@example.com' },
      });
      expect(updated.status, JSON.stringify(username)).toBe(400);
      expect(updated.body).toMatchObject({ error });
    }
    const blank = await t.request('PUT', `/api/users/${quinn.id}`, {
      as: quinn.cookie,
      body: { username: '   ', name: 'Quinn', email: 'quinn-x@example.com' },
    });
    expect(blank.body).toMatchObject({ error: 'Username is required' });
    const inner = await t.request('PUT', `/api/users/${quinn.id}`, {
      as: quinn.cookie,
      body: { username: 'Quinn X', name: 'Quinn', email: 'quinn-x@example.com' },
    });
    expect(inner.status, inner.text).toBe(204);
    expect((await t.request('GET', `/api/users/${quinn.id}`, { as: quinn.cookie })).body).toMatchObject({
      username: 'quinn x',
    });
  });

  it('a user edits their own account but cannot make themselves admin', async () => {
    const dave = await t.createUser('dave');
    const own = { username: 'dave', name: 'Dave D', email: 'dave@example.com' };
    expect((await t.request('PUT', `/api/users/${dave.id}`, { as: dave.cookie, body: own })).status).toBe(204);
    expect((await t.request('GET', `/api/users/${dave.id}`, { as: dave.cookie })).body).toMatchObject({
      name: 'Dave D',
    });
    const escalate = await t.request('PUT', `/api/users/${dave.id}`, {
      as: dave.cookie,
      body: { ...own, admin: true },
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body).toMatchObject({ error: 'Only administrators can change the admin flag' });
  });

  it('non-admins see only id, username and name of other users', async () => {
    const erin = await t.createUser('erin');
    const list = (await t.request('GET', '/api/users', { as: erin.cookie })).body as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(1);
    for (const item of list) expect(Object.keys(item).sort()).toEqual(['id', 'name', 'username']);
  });

  it('external users cannot change their email or password', async () => {
    const created = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'ext', name: 'External', email: 'ext@example.com', external: true },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: number }).id;
    const email = await t.request('PUT', `/api/users/${id}`, {
      as: t.adminCookie,
      body: { username: 'ext', name: 'External', email: 'new@example.com' },
    });
    expect(email.body).toMatchObject({ error: 'External users cannot change their email' });
    const password = await t.request('POST', `/api/users/${id}/password`, {
      as: t.adminCookie,
      body: { password: 'whatever-1' },
    });
    expect(password.status).toBe(400);
    expect(password.body).toMatchObject({ error: 'External users cannot change their password' });
    const login = await t.request('POST', '/api/auth/login', { body: { auth: 'ext', password: '' + 'anything' } });
    expect(login.status).toBe(401);
  });

  it('an admin cannot delete themselves, and a sole project owner cannot be deleted', async () => {
    const me = (await t.request('GET', '/api/user', { as: t.adminCookie })).body as { id: number };
    expect((await t.request('DELETE', `/api/users/${me.id}`, { as: t.adminCookie })).body).toMatchObject({
      error: 'You cannot delete your own account',
    });
    const frank = await t.createUser('frank');
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Frank owns' } });
    const projectId = (project.body as { id: number }).id;
    await t.request('POST', `/api/project/${projectId}/users`, {
      as: t.adminCookie,
      body: { user_id: frank.id, role: 'owner' },
    });
    await t.request('DELETE', `/api/project/${projectId}/users/${me.id}`, { as: t.adminCookie });
    const refused = await t.request('DELETE', `/api/users/${frank.id}`, { as: t.adminCookie });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: expect.stringContaining('only owner of: Frank owns') });
  });
});
