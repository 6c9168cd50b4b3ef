import fastifyCompress from '@fastify/compress';
import { constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * What the UI needs and nothing more: its own scripts only (no inline script, no eval), inline styles
 * (the component library injects them), images from https (single sign-on buttons may name a
 * provider's icon), and no framing by other sites.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** Responses large enough to be worth compressing; smaller ones cost more to compress than they save. */
const COMPRESS_ABOVE_BYTES = 1024;

/** Compression of assets and JSON (brotli or gzip, as the client accepts) and the security headers on every response. */
export async function registerResponsePolicy(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_ABOVE_BYTES,
    encodings: ['br', 'gzip'],
    // Brotli's default quality is tuned for offline compression; 4 compresses live responses about as well as gzip -9, much faster.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
}
