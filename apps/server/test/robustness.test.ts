import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.ts';
import { listTestDialects } from './test-databases.ts';

const dialects = await listTestDialects();

describe.each(dialects)('bad input on %s', (dialect) => {
  const t = useTestApp(dialect, { max_body_bytes: 64 * 1024 });

  it('malformed JSON gets a 400 with an error message', async () => {
    const response = await t.request('POST', '/api/projects', { as: t.adminCookie, rawBody: '{"name": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Request body is not valid JSON', code: 'bad_request' });
  });

  it('a body that is not an object, or fields of the wrong type, get a 400 naming the problem', async () => {
    const array = await t.request('POST', '/api/projects', { as: t.adminCookie, body: [1, 2] });
    expect(array.status).toBe(400);
    expect(array.body).toMatchObject({ error: 'Request body must be a JSON object' });
    const wrongType = await t.request('POST', '/api/users', {
      as: t.adminCookie,
      body: { username: 'x', name: 'x', email: 'x@x', password: 'p', admin: 'yes' },
    });
    expect(wrongType.status).toBe(400);
    expect((wrongType.body as { error: string }).error).toMatch(/^admin: /);
  });

  it('unknown and malformed ids get 404 and 400, never 500', async () => {
    expect((await t.request('GET', '/api/project/424242', { as: t.adminCookie })).status).toBe(404);
    expect((await t.request('GET', '/api/users/424242', { as: t.adminCookie })).status).toBe(404);
    expect(
      (
        await t.request('PUT', '/api/users/424242', {
          as: t.adminCookie,
          body: { name: 'a', username: 'a', email: 'a@a' },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('GET', '/api/project/abc', { as: t.adminCookie })).body).toMatchObject({
      error: 'Invalid project ID',
    });
    expect((await t.request('GET', '/api/users/-1', { as: t.adminCookie })).body).toMatchObject({
      error: 'userId must be a positive integer',
    });
    expect((await t.request('GET', '/api/project/99999999999999999999', { as: t.adminCookie })).status).toBe(400);
    expect((await t.request('GET', '/api/no/such/route', { as: t.adminCookie })).status).toBe(404);
  });

  it('an oversize body gets a 413 and changes nothing', async () => {
    const before = ((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length;
    const response = await t.request('POST', '/api/projects', {
      as: t.adminCookie,
      body: { name: 'x'.repeat(100 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: 'Request body is too large' });
    expect(((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length).toBe(before);
  });

  it('over-long strings are refused by validation, not by the database', async () => {
    const response = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'x'.repeat(300) } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'Name must be at most 255 characters' });
  });

  it('unicode names round-trip intact', async () => {
    const name = 'Проект 项目 🚀';
    const created = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name } });
    const id = (created.body as { id: number }).id;
    expect((await t.request('GET', `/api/project/${id}`, { as: t.adminCookie })).body).toMatchObject({ name });
  });

  it('a NUL character in any text is refused with a 400 and stores nothing, on every database', async () => {
    const before = ((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length;
    const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'bad\u0000name' } });
    expect(project.status).toBe(400);
    expect(project.body).toMatchObject({ error: 'name must not contain NUL characters' });
    expect(((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length).toBe(before);
    const created = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'nul guard' } });
    const base = `/api/project/${(created.body as { id: number }).id}`;
    const nested = await t.request('POST', `${base}/environment`, {
      as: t.adminCookie,
      body: {
        name: 'vars',
        json: '{}',
        env: '{}',
        secrets: [{ name: 'S', secret: 'a\u0000b', type: 'env', operation: 'create' }],
      },
    });
    expect(nested.status).toBe(400);
    expect((await t.request('GET', '/api/projects?sort=name%00', { as: t.adminCookie })).status).toBe(400);
  });

  it('a body nested thousands of levels deep is refused with a 400 instead of overflowing the stack', async () => {
    const deep = `{"name":"deep","task_params":{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`;
    const project = await t.request('POST', '/api/projects', {
      as: t.adminCookie,
      rawBody: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(project.status).toBe(400);
    expect(project.body).toMatchObject({ error: 'Request body is nested more than 64 levels deep' });
    const shallow = `{"name":"nested but fine","extra":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect(
      (
        await t.request('POST', '/api/projects', {
          as: t.adminCookie,
          rawBody: shallow,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(201);
  });

  it('a body that is not JSON, whatever its content type, gets a 400 and a malformed content type a 415', async () => {
    const sameOrigin = { origin: 'http://localhost' };
    for (const [rawBody, contentType, status, error] of [
      ['name=x', 'application/x-www-form-urlencoded', 400, 'Request body is not valid JSON'],
      ['{"name":"x"}', 'no media type', 415, 'Unsupported content type'],
    ] as const) {
      const response = await t.request('POST', '/api/projects', {
        as: t.adminCookie,
        rawBody,
        headers: { ...sameOrigin, 'content-type': contentType },
      });
      expect(response.status, contentType).toBe(status);
      expect(response.body).toMatchObject({ error });
    }
  });
});
