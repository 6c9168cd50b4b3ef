import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen, useTestApp } from './test-app.ts';
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

  it('half of a surrogate pair in any text is refused with a 400, escaped or not, on every database', async () => {
    const before = ((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length;
    for (const name of ['lone\ud800x', 'lone\udc00', 'x\ud800']) {
      const project = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name } });
      expect(project.status, JSON.stringify(name)).toBe(400);
      expect(project.body).toMatchObject({
        error: 'name must be valid Unicode text (it holds half of a surrogate pair)',
      });
    }
    // The escape spelled in upper case, and a key holding one.
    for (const rawBody of ['{"name":"lone\\uD800x"}', '{"name":"ok","\\uDFFF":1}']) {
      const response = await t.request('POST', '/api/projects', {
        as: t.adminCookie,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, rawBody).toBe(400);
    }
    expect(((await t.request('GET', '/api/projects', { as: t.adminCookie })).body as unknown[]).length).toBe(before);
    // A whole pair is one character and round-trips.
    const emoji = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'pair \ud83d\ude80' } });
    expect(emoji.status).toBe(201);
    expect(emoji.body).toMatchObject({ name: 'pair 🚀' });
  });

  it('JSON text in a field (variables, a task environment, a schedule) nested too deep is refused with a 400', async () => {
    const created = await t.request('POST', '/api/projects', { as: t.adminCookie, body: { name: 'deep text' } });
    const base = `/api/project/${(created.body as { id: number }).id}`;
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const group = await t.request('POST', `${base}/environment`, {
      as: t.adminCookie,
      body: { name: 'deep', json: deep, env: '{}' },
    });
    expect(group.status).toBe(400);
    expect(group.body).toMatchObject({ error: 'Extra variables is nested more than 64 levels deep' });
    const env = await t.request('POST', `${base}/environment`, {
      as: t.adminCookie,
      body: { name: 'deep env', json: '{}', env: deep },
    });
    expect(env.status).toBe(400);
    const task = await t.request('POST', `${base}/tasks`, {
      as: t.adminCookie,
      body: { template_id: 1, environment: deep },
    });
    expect(task.status).toBe(400);
    expect(task.body).toMatchObject({ error: 'Environment is nested more than 64 levels deep' });
    const schedule = await t.request('POST', `${base}/schedules`, {
      as: t.adminCookie,
      body: { name: 'deep', template_id: 1, cron_format: '* * * * *', task_params: { environment: deep } },
    });
    expect(schedule.status).toBe(400);
    expect(schedule.body).toMatchObject({ error: 'Environment is nested more than 64 levels deep' });
    const fine = `{"a":${'['.repeat(60)}${']'.repeat(60)}}`;
    const shallow = await t.request('POST', `${base}/environment`, {
      as: t.adminCookie,
      body: { name: 'shallow', json: fine, env: '{}' },
    });
    expect(shallow.status, shallow.text).toBe(201);
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

  it('answers a request the HTTP parser cannot read with the same JSON error body as every refusal', async () => {
    const url = new URL(await listen(t.app));
    const send = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end(raw));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    for (const [raw, status] of [
      ['POST /api/projects HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400],
      ['POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', 400],
      [`GET /api/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ] as const) {
      const answer = await send(raw);
      expect(answer.startsWith(`HTTP/1.1 ${status} `), answer).toBe(true);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'error']);
    }
  });

  it('answers a URL the router cannot read with the same JSON error body as every refusal', async () => {
    for (const url of [
      '/api/project/%ff',
      '/api/terraform/%FF',
      '/assets/%E0%A4%A',
      `/api/terraform/${'a'.repeat(200)}`,
    ]) {
      const response = await t.request('GET', url, { as: t.adminCookie });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
      expect(Object.keys(response.body as object).sort(), `${url}: ${response.text}`).toEqual(['code', 'error']);
    }
  });

  it("takes an app's colours only as colours, since the web app draws them into a style", async () => {
    for (const color of [
      'red;}body{background:url(https://evil.example/leak)}',
      'url(x)',
      'red; color: blue',
      'expression(1)',
    ]) {
      const response = await t.request('PUT', '/api/apps/bash', { as: t.adminCookie, body: { id: 'bash', color } });
      expect(response.status, color).toBe(400);
      expect(response.body).toMatchObject({ error: 'color must be a colour: #rrggbb, a colour name, rgb() or hsl()' });
      const dark = await t.request('PUT', '/api/apps/bash', {
        as: t.adminCookie,
        body: { id: 'bash', dark_color: color },
      });
      expect(dark.status, color).toBe(400);
    }
    for (const color of ['#4eaa25', '#abc', 'rebeccapurple', 'rgb(10, 20, 30)', 'hsl(120deg 50% 40% / 0.5)', '']) {
      const response = await t.request('PUT', '/api/apps/bash', { as: t.adminCookie, body: { id: 'bash', color } });
      expect(response.status, `${color}: ${response.text}`).toBeLessThan(300);
    }
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
