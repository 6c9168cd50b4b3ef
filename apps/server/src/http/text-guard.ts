import { ErrorCode, MAX_JSON_DEPTH } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { describeUnstorableText } from '../db/storable-text.ts';
import { isKnownPlainText } from './request-body.ts';

/** Why a parsed body cannot be taken: the first string (or key) that is no storable text, or nesting too deep. */
function findProblem(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return describeUnstorableText(value, path.join('.') || 'text');
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (path.length >= MAX_JSON_DEPTH)
    return `${path.slice(0, 3).join('.')} is nested more than ${MAX_JSON_DEPTH} levels deep`;
  for (const [key, item] of Object.entries(value)) {
    const found = describeUnstorableText(key, [...path, 'key'].join('.')) ?? findProblem(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A body, query or path holding text the store cannot keep as it is (describeUnstorableText: a NUL
 * character, half of a surrogate pair) is refused at the edge, the same way on every database. So is
 * a body nested so deeply that storing it (JSON.stringify) would overflow the stack.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const body = isKnownPlainText(request.body) ? undefined : request.body;
    const problem = findProblem(body) ?? findProblem(request.query) ?? findProblem(request.params);
    if (problem !== undefined) return reply.code(400).send({ error: problem, code: ErrorCode.validationFailed });
  });
}
