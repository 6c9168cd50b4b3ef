import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';

/** Vite's output: `/assets/name-<hash>.ext`, the hash being 8 characters of [A-Za-z0-9_-]. */
function isHashedAsset(url: string): boolean {
  return /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/.test(url);
}

/**
 * Serves the built single-page app from the same process. Any non-API GET without a dot in its
 * last segment gets index.html, so deep links work; unknown API paths get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const hasWeb = existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    // Looked up per request, so a rebuilt UI is served without a restart.
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: ['index.html'],
      maxAge: '1d',
      // The build writes .br and .gz copies (apps/web/scripts/precompress.mjs): served as they are.
      preCompressed: true,
    });
    // The page itself must always be fresh; the build names its assets by content hash, so a name never changes meaning.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
      const url = request.url.split('?')[0] ?? '/';
      if (reply.statusCode === 200 && isHashedAsset(url))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      else if (String(reply.getHeader('content-type') ?? '').startsWith('text/html'))
        reply.header('cache-control', 'no-cache');
      return payload;
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api';
    const lastSegment = url.split('/').pop() ?? '';
    if (isPage && !lastSegment.includes('.')) {
      if (!hasWeb) return reply.code(503).type('text/plain').send('The web UI is not built. Run: npm run build');
      return reply.sendFile('index.html');
    }
    return reply.code(404).send({ error: 'Not found', code: ErrorCode.notFound });
  });
}
