import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/http/response-policy.ts';
import { useWebUiApp } from './test-app.ts';

const BIG_SCRIPT = `console.log(${JSON.stringify('gantry '.repeat(5000))});`;

describe('HTTP responses as a production server sends them', () => {
  const { t, dist } = useWebUiApp({
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'assets/index-Bx3_kQ9a.js': BIG_SCRIPT,
  });

  it('compresses assets with brotli or gzip as the browser accepts', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Bx3_kQ9a.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(BIG_SCRIPT.length / 10);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/assets/index-Bx3_kQ9a.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-Bx3_kQ9a.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('serves the copies the build compressed ahead as they are', async () => {
    const source = `console.log(${JSON.stringify('ahead '.repeat(4000))});`;
    const compressed = brotliCompressSync(source);
    writeFileSync(path.join(dist, 'assets', 'ahead-Qw3_kQ9b.js'), source);
    writeFileSync(path.join(dist, 'assets', 'ahead-Qw3_kQ9b.js.br'), compressed);
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/ahead-Qw3_kQ9b.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(Buffer.compare(response.rawPayload, compressed)).toBe(0);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses large JSON answers', async () => {
    for (let i = 0; i < 40; i += 1) {
      await t.request('POST', '/api/projects', {
        as: t.adminCookie,
        body: { name: `Compressed project number ${i} with a long name` },
      });
    }
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/projects',
      headers: { cookie: t.adminCookie, 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toHaveLength(40);
  });

  it('lets browsers keep hashed assets for a year and always revalidate the page', async () => {
    const asset = await t.request('GET', '/assets/index-Bx3_kQ9a.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.request('GET', '/favicon.svg');
    expect(icon.headers['cache-control']).not.toContain('immutable');
    for (const url of ['/', '/project/1/history']) {
      expect((await t.request('GET', url)).headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends the security headers on pages, assets, API answers and errors', async () => {
    for (const url of ['/', '/assets/index-Bx3_kQ9a.js', '/api/ping', '/api/projects', '/api/unknown']) {
      const response = await t.request('GET', url);
      expect(response.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['referrer-policy'], url).toBe('same-origin');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });
});
