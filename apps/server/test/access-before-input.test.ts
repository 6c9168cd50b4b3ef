import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/**
 * Routes whose right depends on who is named or on the configuration check it before they read the
 * input: a caller without the right learns nothing of the input rules, whatever the body.
 */
describe.each(dialects)('rights checked before the input on %s', (dialect) => {
  const t = useTestApp(dialect);

  it('answers a non-admin 403, never a validation message, on user and project creation routes', async () => {
    const alice = await t.createUser('before-alice');
    const bob = await t.createUser('before-bob');
    for (const body of [{}, [], { username: 42 }, { name: null }]) {
      for (const [method, url] of [
        ['POST', '/api/users'],
        ['PUT', `/api/users/${bob.id}`],
        ['POST', `/api/users/${bob.id}/password`],
        ['DELETE', `/api/users/${bob.id}`],
        ['PUT', '/api/users/0'],
        ['PUT', '/api/users/x'],
        ['POST', '/api/projects'],
        ['POST', '/api/projects/restore'],
      ] as const) {
        const response = await t.request(method, url, { as: alice.cookie, body });
        expect(response.status, `${method} ${url} ${JSON.stringify(body)}: ${response.text}`).toBe(403);
      }
    }
    // One's own user is still one's to change, and is checked as before.
    const own = await t.request('PUT', `/api/users/${alice.id}`, { as: alice.cookie, body: {} });
    expect(own.status).toBe(400);
    // An administrator reaches the input rules.
    expect((await t.request('POST', '/api/users', { as: t.adminCookie, body: {} })).status).toBe(400);
    expect((await t.request('POST', '/api/projects', { as: t.adminCookie, body: {} })).status).toBe(400);
  });
});

describe.each(dialects)('project creation by everyone on %s', (dialect) => {
  const t = useTestApp(dialect, { non_admin_can_create_project: true });

  it('lets any user reach the input rules of project creation when everyone may create projects', async () => {
    const carol = await t.createUser('before-carol');
    expect((await t.request('POST', '/api/projects', { as: carol.cookie, body: {} })).status).toBe(400);
    expect((await t.request('POST', '/api/projects/restore', { as: carol.cookie, body: {} })).status).toBe(400);
  });
});
