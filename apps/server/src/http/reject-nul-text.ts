import { ErrorCode } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { isKnownNulFree } from './request-body.ts';

/** Far deeper than any body of ours; JSON.stringify of a much deeper value overflows the stack. */
const MAX_DEPTH = 64;

/** Why a parsed body cannot be taken: the first string (or key) holding a NUL character, or nesting too deep. */
function findProblem(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string')
    return value.includes('\u0000') ? `${path.join('.') || 'text'} must not contain NUL characters` : undefined;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (path.length >= MAX_DEPTH) return `${path.slice(0, 3).join('.')} is nested more than ${MAX_DEPTH} levels deep`;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${[...path, 'key'].join('.')} must not contain NUL characters`;
    const found = findProblem(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store a NUL character in text, and no field of ours has a use for one: a body
 * or query that carries one is refused at the edge, the same way on every database. So is a body
 * nested so deeply that storing it (JSON.stringify) would overflow the stack.
 */
export function registerNulTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const body = isKnownNulFree(request.body) ? undefined : request.body;
    const problem = findProblem(body) ?? findProblem(request.query) ?? findProblem(request.params);
    if (problem !== undefined) return reply.code(400).send({ error: problem, code: ErrorCode.validationFailed });
  });
}
