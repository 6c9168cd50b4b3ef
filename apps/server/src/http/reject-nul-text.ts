import { ErrorCode } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';

/** The dotted path of the first string (or key) holding a NUL character, if any. */
function findNul(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'text' : undefined;
  if (path.length > 64 || typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, 'key'].join('.');
    const found = findNul(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of ours has a use for one: a body
 * or query that carries one is refused at the edge, the same way on every database.
 */
export function registerNulTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const field = findNul(request.body) ?? findNul(request.query) ?? findNul(request.params);
    if (field !== undefined) return reply.code(400).send({ error: `${field} must not contain NUL characters`, code: ErrorCode.validationFailed });
  });
}
