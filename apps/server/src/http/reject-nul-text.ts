import { ErrorCode } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of ours has a use for one: a body
 * or query that carries one is refused at the edge, the same way on every database.
 */
export function registerNulTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      return reply.code(400).send({ error: 'Text must not contain NUL characters', code: ErrorCode.validationFailed });
    }
  });
}
