import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useWebUiApp } from './test-app.ts';

describe('serving the web UI', () => {
  const { t, dist } = useWebUiApp({ 'assets/app.js': 'console.log(1)' });

  it('answers deep links without a dot with index.html', async () => {
    for (const url of ['/', '/project/1/history', '/auth/login?x=1', '/users']) {
      const response = await t.request('GET', url);
      expect(response.status, url).toBe(200);
      expect(response.text).toContain('<title>Gantry</title>');
    }
  });

  it('serves built assets, including files built after start, and 404s missing files', async () => {
    expect((await t.request('GET', '/assets/app.js')).text).toBe('console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'rebuilt.js'), 'console.log(2)');
    expect((await t.request('GET', '/assets/rebuilt.js')).text).toBe('console.log(2)');
    expect((await t.request('GET', '/assets/missing.js')).status).toBe(404);
  });

  it('keeps unknown API paths as JSON 404s and answers ping in plain text', async () => {
    const missing = await t.request('GET', '/api/unknown');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'Not found' });
    const ping = await t.request('GET', '/api/ping');
    expect(ping.text).toBe('pong');
    expect(ping.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('publishes an OpenAPI document of the API', async () => {
    const doc = (await t.request('GET', '/api/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/projects', '/api/project/{projectId}/users']));
  });
});
