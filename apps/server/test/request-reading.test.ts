import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

/** How Semaphore's clients and `curl -d` send requests: raw text with whatever content type, or none. */
interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: string;
  headers?: Record<string, string>;
}

describe.each(dialects)('reading requests as Semaphore clients send them on %s', (dialect) => {
  let bearer: string;

  const t = useTestApp(dialect);
  beforeAll(async () => {
    const created = await t.request('POST', '/api/user/tokens', { as: t.adminCookie, body: { name: 'script' } });
    bearer = `Bearer ${(created.body as { id: string }).id}`;
    t.secrets.add((created.body as { id: string }).id);
  });

  async function send({ method, url, payload, headers = {} }: RawRequest) {
    const response = await t.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).not.toBe(500);
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    return {
      status: response.statusCode,
      body: (isJson && response.body ? JSON.parse(response.body) : undefined) as Record<string, unknown> | undefined,
    };
  }

  it('creates a token with an empty JSON body and deletes it with an empty JSON body, as the API docs recipe does', async () => {
    const cookieJson = { cookie: t.adminCookie, 'content-type': 'application/json' };
    const created = await send({ method: 'POST', url: '/api/user/tokens', headers: cookieJson });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = String(created.body?.id);
    t.secrets.add(token);
    expect(
      (await send({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    const removed = await send({
      method: 'DELETE',
      url: `/api/user/tokens/${token}`,
      headers: cookieJson,
      payload: '',
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect(
      (await send({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
  });

  it('reads an empty JSON body as no body on DELETE and body-less POST, while routes that need a body still say so', async () => {
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Empty bodies' } });
    const projectId = (project.body as { id: number }).id;
    const json = { authorization: bearer, 'content-type': 'application/json' };
    const alias = await send({
      method: 'POST',
      url: `/api/project/${projectId}/integrations/aliases`,
      headers: json,
      payload: '',
    });
    expect(alias.status, JSON.stringify(alias.body)).toBe(200);

    const missing = await send({ method: 'POST', url: '/api/projects', headers: json });
    expect(missing.status).toBe(400);
    expect(missing.body?.error).toBe('Request body must be a JSON object');
    const blank = await send({ method: 'PUT', url: `/api/project/${projectId}`, headers: json, payload: '  \n' });
    expect(blank.status).toBe(400);
    expect(blank.body?.error).toBe('Request body must be a JSON object');

    const removed = await send({ method: 'DELETE', url: `/api/project/${projectId}`, headers: json });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
  });

  it('answers GET, PUT and DELETE of projects and users with a trailing slash like without', async () => {
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'Slashed' } });
    const projectId = (project.body as { id: number }).id;
    const json = { authorization: bearer, 'content-type': 'application/json' };

    const read = await send({ method: 'GET', url: `/api/project/${projectId}/`, headers: json });
    expect(read.status).toBe(200);
    expect(read.body?.name).toBe('Slashed');
    expect((await send({ method: 'GET', url: `/api/project/${projectId}//?sort=name`, headers: json })).status).toBe(
      200,
    );
    expect(
      (
        await send({
          method: 'PUT',
          url: `/api/project/${projectId}/`,
          headers: json,
          payload: JSON.stringify({ name: 'Renamed' }),
        })
      ).status,
    ).toBe(204);
    expect((await t.request('GET', `/api/project/${projectId}`, { as: t.adminCookie })).body).toMatchObject({
      name: 'Renamed',
    });
    expect((await send({ method: 'DELETE', url: `/api/project/${projectId}/`, headers: json })).status).toBe(204);
    expect((await t.request('GET', `/api/project/${projectId}`, { as: t.adminCookie })).status).toBe(404);

    const user = await t.createUser('slash-user');
    expect((await send({ method: 'GET', url: `/api/users/${user.id}/`, headers: json })).body).toMatchObject({
      username: 'slash-user',
    });
    const update = { username: 'slash-user', name: 'Slash Renamed', email: 'slash-user@example.com', admin: false };
    expect(
      (await send({ method: 'PUT', url: `/api/users/${user.id}/`, headers: json, payload: JSON.stringify(update) }))
        .status,
    ).toBe(204);
    expect((await send({ method: 'GET', url: `/api/users/${user.id}`, headers: json })).body).toMatchObject({
      name: 'Slash Renamed',
    });
    expect((await send({ method: 'DELETE', url: `/api/users/${user.id}/`, headers: json })).status).toBe(204);
    expect((await send({ method: 'GET', url: `/api/users/${user.id}`, headers: json })).status).toBe(404);
    expect((await send({ method: 'GET', url: '/api/nothing-here/', headers: json })).status).toBe(404);
  });

  it.each([
    ['application/x-www-form-urlencoded (curl -d)', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }],
    ['no content type', {}],
  ])('parses a JSON body sent as %s', async (label, contentType: Record<string, string>) => {
    const created = await send({
      method: 'POST',
      url: '/api/projects',
      headers: { authorization: bearer, ...contentType },
      payload: JSON.stringify({ name: `Typed ${label}` }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body?.name).toBe(`Typed ${label}`);
    const broken = await send({
      method: 'POST',
      url: '/api/projects',
      headers: { authorization: bearer, ...contentType },
      payload: 'name=Form',
    });
    expect(broken.status).toBe(400);
    expect(broken.body?.error).toBe('Request body is not valid JSON');
  });

  it('refuses prototype-polluting keys whatever the content type', async () => {
    const response = await send({
      method: 'POST',
      url: '/api/projects',
      headers: { authorization: bearer, 'content-type': 'text/plain' },
      payload: '{"name":"P","__proto__":{"admin":1}}',
    });
    expect(response.status).toBe(400);
    expect(response.body).toHaveProperty('error');
  });

  it.each([
    ['application/json', { 'content-type': 'application/json' }],
    ['application/octet-stream', { 'content-type': 'application/octet-stream' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no content type', {}],
  ])('restores a backup uploaded as %s', async (label, contentType: Record<string, string>) => {
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: `Backup ${label}` } });
    const backup = await t.request('GET', `/api/project/${(project.body as { id: number }).id}/backup`, {
      as: t.adminCookie,
    });
    expect(backup.status).toBe(200);
    const document = backup.body as { meta: { name: string } };
    document.meta.name = `Restored ${label}`;
    const restored = await send({
      method: 'POST',
      url: '/api/projects/restore/',
      headers: { authorization: bearer, ...contentType },
      payload: JSON.stringify(document),
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body?.name).toBe(`Restored ${label}`);
  });
});
